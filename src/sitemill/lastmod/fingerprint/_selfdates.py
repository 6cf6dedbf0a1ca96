"""Self-dates: what a page says of when it changed, which changes with it and is no content."""
# "Last updated on <date>", "Last modified <date>", "Page last updated <date>: <a
# href=…/commit/…>message</a>" (Docsy), "Last updated: <date>" (Starlight) say when the page
# changed: they change with it (or with a repository rename) and are left out of its reduction.
# A self-date is a label, a date, an author's name and a commit link whose text is a hash or a
# date; other words beside them are content.
#
# Version 7 (issue 79) reads its author and other languages' labels as part of it:
#
# - **The author**: "Last updated on <date> by <name>" (Docusaurus' showLastUpdateAuthor) where the
#   name ends its block (a mark or the reduction's end follows it: a name of at most four words);
#   the author of a page's last commit changes with the page as its date does.
# - **Labels in Chinese**, in any word order: "最后由 <name> 于 <date> 更新" (Docusaurus' zh-Hans,
#   zh-Hant "最後由 … 於 … 更新"), "最后由 <name> 更新于 <date>", "最后更新于 <date>",
#   "最後更新時間：<date>", with dates as written there ("2024年12月17日"). A label is a phrase
#   of a language: these are the phrases the tuning sites' generators write. A fingerprint is of one
#   page alone (a page's other versions and the site's other pages are compared by it), so the
#   site's other pages cannot be what tells a label here; words that stand beside a date on every
#   page of a commit are the history's to read (history.templateedits).
#
# Version 13 (issue 79): the label's own "Page" ("Page last updated", Docsy) is never the last word
# of the sentence before it. "…connection page Last modified <date>: <commit link>" opens its block
# with "Last", as "…connection page Page last updated <date>: …" does with "Page": read from the
# word "page" of the sentence, the label began in lower case after other words, so the self-date
# was kept as that sentence's (hugegraph's security page, the words of one Docsy self-date).
#
# Version 13 (amended, issue 79) reads the labels a page says it changed with, not "last …" alone:
# "This article was updated on 15 April 2025" (Publii's themes), "This post was last modified
# on …", "the page has been revised on …", and a block that opens with "Updated:", "Updated on",
# "Modified:" or "Revised on" before a date; in Chinese "本文更新于 <date>", "更新时间：<date>"
# (the "last" word left out), in Japanese "更新日：<date>". A Publii post's "This article was
# updated on 4 April 2025" became "… 15 April 2025" beside a sidebar edit of every post, and the
# post was dated by it.

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE

_SPACES: Final = re.compile("  +")
_MONTH: Final = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY: Final = (
    rf"(?: {_MONTH} \ \d{{1,2}}(?:st|nd|rd|th)?,?\ \d{{4}}"
    rf" | \d{{1,2}}(?:st|nd|rd|th)?\.?\ {_MONTH},?\ \d{{4}}"
    r" | \d{4}[-/.]\d{1,2}[-/.]\d{1,2} | \d{1,2}[-/.]\d{1,2}[-/.]\d{4} )"
)
_TIME: Final = (
    r"(?: ,?\ (?:at\ )?\d{1,2}:\d{2}(?::\d{2})?(?:\ ?[ap]m)?(?:\ ?(?:utc|gmt|[+-]\d{2}:?\d{2}))? )?"
)
_DATE: Final = _DAY + _TIME
# (version 7) A date as Chinese and Japanese write it: 2024年12月17日.
_DATE_7: Final = rf"(?: {_DAY} | \d{{4}}\ ?年\ ?\d{{1,2}}\ ?月\ ?\d{{1,2}}\ ?日 ){_TIME}"
# (version 9) Any date as above, for a verbose, case-insensitive pattern (fingerprint.listpages).
ANY_DATE: Final = _DATE_7
# A commit link beside a self-date is part of it only when its text names the commit: its hash, a
# date, or words that end with the hash the link's own URL has (Docsy's "Last modified <date>:
# <message> (<hash>)", the commit's own description); any other words are content. A label that
# opens no block (in lower case after other words: "…the data was last changed on 2024-01-02") is
# a sentence of the page, not a self-date. (The reduction's white space is collapsed and a mark
# has no space beside it.)
_HASH: Final = r"\(?[0-9a-f]{7,40}\)?"
_LABEL: Final = r"(?:page\ )?last\ (?:updated|modified|update|edited|changed)(?:\ on)?:?\ ?"
_COMMIT: Final = rf"""(?: \ ?[:,-]?\ ?{MARK_EDGE}H[^{MARK_EDGE}]*/commits?/(?P<sha>[0-9a-f]{{7}})
    [0-9a-f]*(?:[?#][^{MARK_EDGE}]*)?{MARK_EDGE}
    \ ?(?: {_HASH} | \(?{_DATE}\)? | [^{MARK_EDGE}]*\((?P=sha)[0-9a-f]{{0,33}}\) )\ ?
    {MARK_EDGE}E{MARK_EDGE} )?"""
# An author's name: at most four words, none a mark.
_NAME: Final = rf"[^{MARK_EDGE}\ ]+(?:\ [^{MARK_EDGE}\ ]+){{0,3}}?"
# (version 13) The same, each word at most _NAME_LETTERS characters: a script that writes no
# spaces (Chinese) would otherwise make one "name" of a whole paragraph, read again from each
# place a self-date may start (quadratic in the paragraph).
_NAME_LETTERS: Final = 32
_NAME_13: Final = (
    rf"[^{MARK_EDGE}\ ]{{1,{_NAME_LETTERS}}}(?:\ [^{MARK_EDGE}\ ]{{1,{_NAME_LETTERS}}}){{0,3}}?"
)
_LAST: Final = "(?:最后|最後)"
_SELF_DATE_7: Final = re.compile(
    rf"""{_LABEL}{_DATE_7}\.?{_COMMIT} (?: \ by\ {_NAME} (?=\ ?{MARK_EDGE}|\ ?\Z) )?
    | {_LAST}\ ?(?:由\ ?{_NAME}\ ?)?[于於]\ ?{_DATE_7}\ ?更新
    | {_LAST}\ ?(?:由\ ?{_NAME}\ ?)?更新(?:于|於|时间|時間|日期)?\ ?[:：]?\ ?{_DATE_7}
    | 最終更新(?:日)?\ ?[:：]?\ ?{_DATE_7}""",
    re.IGNORECASE | re.VERBOSE,
)
# (version 13) The labels above, and the "last" word of the Chinese ones left out (see above).
_CHANGED: Final = r"(?:updated|modified|update|edited|changed|revised)"
_LABEL_13: Final = rf"""(?: (?:page\ )?last\ {_CHANGED}(?:\ on)?:?
    | (?:this|the)\ (?:article|post|page|entry)\ (?:was|has\ been)\ (?:last\ )?{_CHANGED}
      (?:\ on)?:?
    | (?:updated|modified|revised)(?:\ on|:) )\ ?"""
_WHICH: Final = rf"(?:{_LAST}|本文|本页|本頁|文章)"  # ("last", "this article", "this page")
_SELF_DATE_13: Final = re.compile(
    rf"""{_LABEL_13}{_DATE_7}\.?{_COMMIT} (?: \ by\ {_NAME_13} (?=\ ?{MARK_EDGE}|\ ?\Z) )?
    | {_LAST}\ ?(?:由\ ?{_NAME_13}\ ?)?[于於]\ ?{_DATE_7}\ ?更新
    | {_WHICH}?\ ?(?:由\ ?{_NAME_13}\ ?)?更新(?:于|於|时间|時間|日期)\ ?[:：]?\ ?{_DATE_7}
    | {_LAST}\ ?(?:由\ ?{_NAME_13}\ ?)?更新\ ?[:：]?\ ?{_DATE_7}
    | (?:最終)?更新日?\ ?[:：]\ ?{_DATE_7} | 最終更新\ ?{_DATE_7}""",
    re.IGNORECASE | re.VERBOSE,
)
# What a self-date holds, in lower case: found at memchr speed, before _SELF_DATE_7 is run.
# The length of "page " (the label's optional first word, version 13: see above).
_PAGE_WORD: Final = len("page ")
_SELF_DATE_WORDS_7: Final = re.compile(
    r"last (?:updated|modified|update|edited|changed)|最后|最後|最終更新"
)


# (version 13) A word each self-date holds (in lower case), found at memchr speed: the pattern is
# tried only at the places up to _REACH characters before one ("this article has been last
# updated", the longest label before its word; "最后由", "本文由" before a name), never along the
# whole page (a 100 KB page whose text says "changed" once took six times version 7's reading).
_KEYS_13: Final = ("updat", "modifi", "edited", "changed", "revised", "更新", "最", "由")
_CASED_13: Final = ("pdat", "odifi", "dited", "hanged", "evised", "更新", "最", "由")  # (any case)
_REACH: Final = 32


def without_self_dates(text: str, version: int) -> str:
    """A collapsed reduction ``text`` less its self-dates (see above), by fingerprint
    ``version``."""
    if version >= 13:
        return _without_13(text)
    if ("ast " in text or "最" in text) and _SELF_DATE_WORDS_7.search(text.lower()):
        return _spaced(_SELF_DATE_7.sub(_self_date_7, text), text)
    return text


def _without_13(text: str) -> str:
    """without_self_dates by version 13: _SELF_DATE_13 read from the places before its words
    (see _KEYS_13), leftmost first, as a substitution along the text reads it."""
    if not any(key in text for key in _CASED_13):
        return text
    lowered = text.lower()
    if len(lowered) != len(text):  # (a letter whose lower case is longer: read along the text)
        return _spaced(_SELF_DATE_13.sub(_self_date_13, text), text)
    places = sorted(_places(lowered))
    if not places:
        return text
    pieces: list[str] = []
    done = tried = 0  # (tried: the starts before it were read, none a self-date)
    for place in places:
        for start in range(max(done, tried, place - _REACH), place + 1):
            found = _SELF_DATE_13.match(text, start)
            if found is not None and found.end() > start:
                pieces += (text[done:start], _self_date_13(found))
                done = found.end()
                break
        else:
            tried = place + 1
    return _spaced("".join((*pieces, text[done:])), text) if pieces else text


def _places(lowered: str) -> list[int]:
    """Where each of _KEYS_13 stands in ``lowered``."""
    found: list[int] = []
    for key in _KEYS_13:
        at = lowered.find(key)
        while at >= 0:
            found.append(at)
            at = lowered.find(key, at + 1)
    return found


def _spaced(dated: str, text: str) -> str:
    return text if dated == text else _SPACES.sub(" ", dated).strip(" ")


def _self_date_7(found: re.Match[str]) -> str:
    """A self-date left out, where it opens a block (see _SELF_DATE_7): a label in a script without
    case opens one wherever it stands."""
    return "" if _opens(found.string, found.start()) else found[0]


def _self_date_13(found: re.Match[str]) -> str:
    """_self_date_7, and (version 13) a label read from the last word "page" of the sentence
    before it: the self-date after that word, where it opens a block (see above)."""
    start, words = found.start(), found[0]
    if _opens(found.string, start):
        return ""
    if words[:_PAGE_WORD].lower() == "page " and _opens(found.string, start + _PAGE_WORD):
        return words[:_PAGE_WORD]
    return words


def _opens(text: str, start: int) -> bool:
    """Whether what starts at ``start`` of ``text`` opens a block: the reduction's start, a
    mark before it, or a first letter not in lower case."""
    return not start or text[start - 1] == MARK_EDGE or not text[start : start + 1].islower()
