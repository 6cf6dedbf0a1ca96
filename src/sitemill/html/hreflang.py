"""hreflang values: checked against the codes Google accepts, written in canonical case."""
# Google reads an hreflang value as ``x-default`` or an ISO 639-1 language code, optionally followed
# by an ISO 15924 script, an ISO 3166-1 alpha-2 region, or both (``zh-Hant-TW``); anything else
# (``en-UK``, ``en_US``, the three-letter ``eng``, the UN M.49 region ``419``) is ignored, so a
# sitemap leaves it out.
# https://developers.google.com/search/docs/specialty/international/localized-versions
#
# The code lists are the ISO ones as the Debian iso-codes project publishes them
# (https://salsa.debian.org/iso-codes-team/iso-codes, also shipped as pycountry's data): ISO 639-1
# as listed beside ISO 639-2 by its registration authority, the Library of Congress
# (https://www.loc.gov/standards/iso639-2/php/code_list.php: 184 codes, ``bh`` among them, not the
# withdrawn ``iw``, ``in``, ``ji`` and ``sh``); the 249 officially assigned ISO 3166-1 alpha-2 codes
# (no exceptionally reserved ``UK`` or ``EU``, no user-assigned ``XK``); ISO 15924 as of Unicode's
# registry (https://www.unicode.org/iso15924/iso15924-codes.html) less the private-use range
# Qaaa-Qabx, which names no script to anyone else.

from __future__ import annotations

from typing import Final

X_DEFAULT: Final = "x-default"
# The longest value: language, script and region ("zh-Hant-TW"). Longer input is refused
# before any other work, however long it is.
_MAX_LENGTH: Final = len("zh-Hant-TW")
# White space an HTML attribute value may carry around its text (the HTML standard's
# ASCII white space): https://infra.spec.whatwg.org/#ascii-whitespace
_HTML_SPACE: Final = " \t\n\f\r"


def _codes(text: str) -> frozenset[str]:
    """The codes of a list written as words (easier to check against its source)."""
    return frozenset(text.split())


# ISO 639-1 two-letter language codes (lower case).
LANGUAGES: Final = _codes(
    """
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce
    ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr
    fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is
    it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln
    lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv
    ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk
    sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw
    ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
    """
)
# ISO 15924 four-letter script codes (title case), without the private-use Qaaa-Qabx.
SCRIPTS: Final = _codes(
    """
    Adlm Afak Aghb Ahom Arab Aran Armi Armn Avst Bali Bamu Bass Batk Beng Berf Bhks
    Blis Bopo Brah Brai Bugi Buhd Cakm Cans Cari Cham Cher Chis Chrs Cirt Copt Cpmn
    Cprt Cyrl Cyrs Deva Diak Dogr Dsrt Dupl Egyd Egyh Egyp Elba Elym Ethi Gara Geok
    Geor Glag Gong Gonm Goth Gran Grek Gujr Gukh Guru Hanb Hang Hani Hano Hans Hant
    Hatr Hebr Hira Hluw Hmng Hmnp Hntl Hrkt Hung Inds Ital Jamo Java Jpan Jurc Kali
    Kana Kawi Khar Khmr Khoj Kitl Kits Knda Kore Kpel Krai Kthi Lana Laoo Latf Latg
    Latn Leke Lepc Limb Lina Linb Lisu Loma Lyci Lydi Mahj Maka Mand Mani Marc Maya
    Medf Mend Merc Mero Mlym Modi Mong Moon Mroo Mtei Mult Mymr Nagm Nand Narb Nbat
    Newa Nkdb Nkgb Nkoo Nshu Ogam Olck Onao Orkh Orya Osge Osma Ougr Palm Pauc Pcun
    Pelm Perm Phag Phli Phlp Phlv Phnx Piqd Plrd Prti Psin Ranj Rjng Rohg Roro Runr
    Samr Sara Sarb Saur Seal Sgnw Shaw Shrd Shui Sidd Sidt Sind Sinh Sogd Sogo Sora
    Soyo Sund Sunu Sylo Syrc Syre Syrj Syrn Tagb Takr Tale Talu Taml Tang Tavt Tayo
    Telu Teng Tfng Tglg Thaa Thai Tibt Tirh Tnsa Todr Tols Toto Tutg Ugar Vaii Visp
    Vith Wara Wcho Wole Xpeo Xsux Yezi Yiii Zanb Zinh Zmth Zsye Zsym Zxxx Zyyy Zzzz
    """
)
# ISO 3166-1 alpha-2 officially assigned region codes (upper case), a line per initial.
REGIONS: Final = _codes(
    """
    AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ
    BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
    CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ
    DE DJ DK DM DO DZ
    EC EE EG EH ER ES ET
    FI FJ FK FM FO FR
    GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY
    HK HM HN HR HT HU
    ID IE IL IM IN IO IQ IR IS IT
    JE JM JO JP
    KE KG KH KI KM KN KP KR KW KY KZ
    LA LB LC LI LK LR LS LT LU LV LY
    MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ
    NA NC NE NF NG NI NL NO NP NR NU NZ
    OM
    PA PE PF PG PH PK PL PM PN PR PS PT PW PY
    QA
    RE RO RS RU RW
    SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ
    TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ
    UA UG UM US UY UZ
    VA VC VE VG VI VN VU
    WF WS
    YE YT
    ZA ZM ZW
    """
)


def normalize_hreflang(value: str) -> str | None:
    """``value`` as a sitemap writes it (``en-gb`` -> ``en-GB``, ``ZH-hant-tw`` ->
    ``zh-Hant-TW``, ``X-Default`` -> ``x-default``), or None when Google would not accept it.

    Input is case-insensitive and may carry HTML white space around it; the subtags are
    separated by hyphens only (Google rejects ``en_US``).
    """
    text = value.strip(_HTML_SPACE)
    # ASCII first: str.lower() maps some non-ASCII letters to ASCII ones (the Kelvin sign to
    # "k"), so a look-alike must be refused before case is folded.
    if not 0 < len(text) <= _MAX_LENGTH or not text.isascii():
        return None
    parts = text.split("-")
    language = parts[0].lower()
    if len(parts) == 2 and language == "x" and parts[1].lower() == "default":
        return X_DEFAULT
    if language not in LANGUAGES or len(parts) > 3:
        return None
    subtags = [language]
    rest = parts[1:]
    if rest and len(rest[0]) == 4:
        script = rest.pop(0).title()
        if script not in SCRIPTS:
            return None
        subtags.append(script)
    if rest:
        region = rest.pop(0).upper()
        if region not in REGIONS or rest:
            return None
        subtags.append(region)
    return "-".join(subtags)


def is_valid_hreflang(value: str) -> bool:
    """Whether Google accepts ``value`` as an hreflang value (see normalize_hreflang)."""
    return normalize_hreflang(value) is not None
