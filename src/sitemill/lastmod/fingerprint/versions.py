"""What a fingerprint is of: its version (a state says which), HTML's suffixes, a page's bytes."""
# Apart from the fingerprint itself (digest), so that a state is read and written without
# importing the reduction: the Lambda's events that fingerprint no page start without it.

from typing import Final

# Bumped whenever a page would be hashed differently. A state written with the previous version is
# compared by that version's fingerprint (EARLIER_VERSIONS: only the previous version stays
# computable), so no date moves because sitemill was upgraded; with an older one, a page whose blob
# or ETag is unchanged keeps its date and others take the evidence ladder
# (sitemill.state.model.State.outdated). The golden values pinned in
# tests/lastmod/fingerprint/test_digest.py fail first when the algorithm changes. 1: every tag a
# word boundary. 2: the tags of inline elements are not. 3: furniture left out inside the main
# region too, one article narrowed to, self-dates and empty descriptions left out, targets resolved
# from the page's URL (fingerprint.regionselect, fingerprint.targets). 4: no space left beside a
# mark where a self-date was, inline (data:) images by their media type, of several articles the one
# with the page's <h1> narrowed to (fingerprint.articles). 5: what only this page says is content
# wherever it stands (a header with the page's <h1>, articles beside the headline's), a title by its
# parts, excerpts, self and share links as no link, inline drawings and data: links by their bytes,
# narrower self-dates (fingerprint.titleparts, fingerprint.excerpts, fingerprint.selflinks); the
# title's end marked (history.templateedits); white space beside punctuation left out of what is
# hashed (_SPACING). 6: by principle (issue 63's wave 6): structured data and teasers, each gated
# ``version >= 6`` where it is read (a page's JSON-LD as marks after its reduction, less dates and
# its own URL: fingerprint.structureddata); white space beside Han and kana left out
# (_BESIDE_UNSPACED); a list page's headline beside its one teaser kept (fingerprint.titledarticle).
# 7 (issue 79), each gated ``version >= 7`` where it is read: white space inside a link or image
# target part of it (fingerprint.targets.spaced_targets), what no reader sees no words (control and
# zero-width characters, a self link's symbols: fingerprint.invisible), a self-date's author and its
# label in other languages part of it (fingerprint.selfdates); JSON-LD that restates the page or
# stands for another page of the site adds nothing, a heading's link mentioned again is prose, not
# a teaser (fingerprint.structureddata, fingerprint.headedteasers); a post's blocks of links to
# other pages of the site outside every article (fingerprint.linkblocks); elements hidden by the
# hidden attribute or an inline display:none / visibility:hidden (reduction.leave_out_hidden);
# a share button's query read as a browser reads it, the page's URL anywhere in a value
# (fingerprint.selflinks.shared_paths). 8 (issue 79), gated ``version >= 8`` where it is read: a
# tab panel (role="tabpanel") hidden by the attribute or an inline style is content: a reader sees
# it by choosing its tab (reduction.leave_out_hidden's tab_panels). 9 (issue 79), gated
# ``version >= 9`` where it is read: a heading's markers are no letters of the text a description is
# looked for in as an excerpt (regionselect.join_selection: an auto-excerpt that runs past a
# heading adds nothing); a <source> of a <picture> and an image's srcset beside its src are the
# same picture at other sizes (fingerprint.targetmarks' resized copies, left out: targets); a
# comment in text parts no words (fingerprint.comments); a list page's content is which pages it
# lists: a date that stands alone beside a listed page's link is that page's, and a paginated
# page's "N/M" counts as N (fingerprint.listpages). 10 (issue 79), gated ``version >= 10`` where it
# is read: structured data that restates the page says nothing new: a JSON-LD ``@type`` is the
# vocabulary's, not the page's; a node inside another that names the page itself is a reference to
# it, whole; a node whose every value the page shows (a post's byline as its author's node) adds
# nothing (fingerprint.structureddata, fingerprint.restated). Versions 8 and 9 are no longer
# computable (issue 80: the contract keeps the current and the previous one), their gates gone.
# 11 (issue 79), gated ``version >= 11`` where it is read: a table of contents is furniture
# wherever it stands: a link to the page's own fragment whose words are one of its headings', and
# a heading over nothing but such links (fingerprint.contents). 12 (issue 79), gated
# ``version >= 12`` where it is read: structured data that counts or places the page itself says
# nothing new: a value the page's own text determines (schema.org's wordCount, timeRequired) and
# the page's own crumb named by its title alone, with no address, are a reference to the page,
# whole (fingerprint.structureddata, fingerprint.restated). Version 10 is no longer computable,
# its gate (``version >= 11``: a table of contents) gone. 13 (issue 79), gated ``version >= 13``
# where it is read: what only this page says is content wherever it stands, and a meta
# description that is the page's text cut short adds nothing, whatever links that text holds:
# a headline is the title's when one of the title's parts (a parenthesis a separator too)
# stands in it word for word, as when it stands in the title (odoc's "Module X.Make" under
# "Make (pkg.X.Make)": fingerprint.titleblock), a page without a region keeps the header that
# holds its <h1> unless its title names another heading or the <h1> is the site's name (the words
# of a link to a page above it, or itself a link to a home page: fingerprint.titleblock),
# a title part that is the words of a link to a page above the page (the site's name) names no
# page (fingerprint.titledarticle), and a breadcrumb (its aria-label, class or
# itemtype) is navigation wherever it stands, and an article left open ends with the <div> or
# <section> holding it, and an <h1> inside a link to another page is no headline of the page,
# so it keeps no region from narrowing to the page's article (fingerprint.articles: a card's
# heading, an author card's or a banner's name linked to the home; it retired the rule that read
# a header inside the region by whether the <title> names its <h1>); the window an excerpt
# is looked for in is counted in the text's letters and digits, not its marked characters
# (fingerprint.excerpts); a JSON-LD URL at the root the page's own canonical declares on another
# host is read at the page's own root (fingerprint.declaredroot: an export's host), as is every
# link, image and srcset target, each read as a browser reads it first (a backslash a slash in an
# http(s) or file URL: fingerprint.browserurl), a share button's query carrying the page's own
# path at any root a share button (fingerprint.targets, fingerprint.selflinks), and a
# self-date's label is never read from the last word "page" of the sentence before it
# (fingerprint.selfdates), and a placeholder link (an <a> with no href) whose text holds no
# letter or digit is left out with its text, as a link to the page itself is (a pager's
# disabled "««": fingerprint.targetmarks.without_placeholder_glyphs), and a link whose own role
# is a furniture role is left out as a post's neighbour is (reduction.mark_kept_tag), and a JSON-LD
# value is read for what it restates with its HTML character references decoded
# (fingerprint.structureddata), and a page-level header holding the page's <h1> beside a region
# that says nothing (no heading, no word) is its title block (fingerprint.titleblock).
# Version 11 is no longer computable, its gates (``version >= 12``: structured data that counts
# or places the page itself) gone.
FINGERPRINT_VERSION: Final = 13
EARLIER_VERSIONS: Final = frozenset({12})
# Raised by hand whenever a rule that dates pages changes but no fingerprint does (which pages
# are read, how a history is walked, what a commit's edits decide: html/, jobs/, lastmod/,
# listing/): a state's remembered walk (history.inputs) holds only for the rules that found it,
# so a sitemill with other rules walks the history again once. 1: issue 80 (was a digest of the
# source of those packages, which any edit there, a comment too, changed); 2: issue 79 (a move of
# the site's host and base path is one edit: history.stopedits.own_path); 3: issue 79 (an edit
# held whole in the edits of most pages of a commit, beside their own, is template:
# history.probes.contained_edits, each stop's sketch remembered: editparts.edit_sketch; a link's
# query rewritten one way is a move, a link that named no part of the page no link to it at
# an older address: history.targetmoves; what an edit kept but moved named: edits.moved_within);
# 4: issue 79 (one link that moved onto the page itself stands for every link end the edit lost:
# the same link written twice, history.targetmoves.self_links; an edit is counted over every page
# its commit changed, not only the pages whose walk stops there: history.templateedits' census);
# 5: issue 79 (a stamp on however few pages: a stop no round named whose versions differ only in
# their commits' stamps is carried past, history.lonestamps; a commit's day in any zone from
# UTC-12 to UTC+14, and a stamp put in where none stood or taken out, are stamps: history.stamps);
# 6: issue 79 (a date that starts with a number may follow a letter, inline markup being no word
# boundary: a render time in its own <span> after "< 1 s" is a stamp, history.dateforms); 7: issue
# 79 (an edit of letter case alone is one edit on every page, RECASED: history.respacing; a link
# that stood several times and went is no link moved onto the page itself, targetmoves.self_links);
# 8: issue 79 (the targets of a kind that all moved, however many ways, are named by their moves,
# each by what moved between its ends' common start and end: history.targetmoves.rewrites); 9:
# issue 79 (an edit of the text's words made alike on at least 8 pages of a section, more than half
# of it, is template by the section's census, history.sectioncensus; an edit judged template at a
# commit is the template's on every page that made it there: history.templateedits); 10: issue 79
# (an edit whose every token is one most of its commit's pages took out or put in alike, or most
# of those that moved another site's targets of its host, is template: two template edits on one
# page, history.tokencensus.token_templates, each stop's tokens this run's alone,
# stopedits.read_tokens; an edit that put in, took out or re-pointed a link to a page its commit
# created, deleted or moved is its page's own and testifies for no other: history.listings);
# 11: issue 79 (the targets of a kind moved one way beside a few that came or went, a new page in
# the sidebar every page carries, are named by the move and those few: targetmoves.rewrites);
# 12: issue 79 (a commit is judged by the pages it changed, not by the stops left at it in a
# round: history.commitcensus; another site's scheme and host moved alone under every target of
# a kind is no page's own exact edit, whatever its paths, and alone no content:
# targetmoves.host_moves, hosts_moved_alone; the pages a commit changed, where a census counts
# them, are those it edited, not those it deleted or added: sectioncensus.census_of);
# 13: issue 79 (the commits of one second are one commit, a page's versions in it one version,
# the newest: history.versions.one_a_second); 14: issue 79 (a link's end put in or taken out is
# named by its kind on either side, so the same links put in on a page that held none and on one
# that held some are one edit: history.edits._repeats); 15: issue 79 (a target moved from another
# host onto the site's own, the rest kept, is no content either: targetmoves.hosts_moved_alone);
# 16: issue 79 (a link re-pointed within the document it leads to, its fragment alone changed,
# is no edit of the page's: a member's anchor named by a hash of its declaration, re-pointed on
# every page that links to it; history.targetmoves.repointed_apart, edits.REPOINTED; an edit's
# words read as the fingerprint reads them, white space beside anything but a letter or a digit
# no word's end: history.respacing.respaced_runs); 17: issue 79 (a round of template edits that
# carried pages only past an edit its commit made on most of the pages it changed is none of
# MAX_ROUNDS: history.templateedits; a link a commit changed on more than half of the pages the
# site had then is its navigation, not a list: history.listings); 18: issue 79 (a link's target
# is named as it is whether or not the page holds it elsewhere, as its end is named by its kind
# on either side: a sidebar's post taken out where the page links it twice is the same edit as
# where once,
# history.edits._by_kind; a stop no count named whose versions differ in their links' and
# images' targets alone is named from its reductions, so a link re-pointed within its document
# or another site's host moved alone passes on however few pages: history.lonestamps); 19:
# issue 79 (a target names a scheme and host only at its start, as the fingerprint reads it:
# ``;https://host/x`` is the site's own path, and a link repaired from it to ``https://host/x``
# led to another page, no host's move; history.targetmoves.names_host); 20:
# issue 79 (a title recased alone is compared as its parts case-folded, then sorted, so a part
# that changed place by its letter case alone is RECASED: history.respacing.recased); 21: issue 79
# (a list page's teaser retitled with the page it lists, by the commit that retitled that page,
# is the list's own edit, however many lists made it: history.listings.OwnEdits); 22: issue 79
# (a move of host and base path pairs each removed target with the added one the move made it
# into, not the one at its place in sorted order: history.targetpairs.paired); 23: issue 79
# (a block's edit is counted wherever it stood: a page whose tokens most pages did not make in
# their region, words alone, is judged again with the tokens the commit's pages made in their
# whole bodies counted too: history.blockcensus); 24: issue 79
# (a part of links to the site's pages taken out or put in whole is named by its kind, a post's
# pager taken out of most pages of a commit being the template's: history.sitelinks.links_by_kind;
# a page's exact moves are its own only where no other page of its commit made them too:
# history.probes.exact_shared); 25: issue 79
# (a month in Han numerals and a weekday beside a date, when it is that date's, are the date's
# spelling: history.dateforms; a page whose change at a commit reduces to nothing is not among
# the pages a census weighs the commit's edit against: history.sectioncensus.census_of); 26:
# issue 79 (a title's words put in or taken out that open a run of the page's text in both
# versions restate the page and are named by their kind: history.titlerestated; the census of
# blocks reads what a page kept as it stands, and a page whose whole body made only the edit
# most of its commit's pages made in theirs made none of its own: history.blockcensus).
DATING_RULES: Final = 26
HTML_SUFFIXES: Final = (".html", ".htm")
# A page is fingerprinted from at most its first this many bytes, wherever it is read (a
# tree, a bucket, an old git version), so that one page gives one fingerprint everywhere.
# Bounded so that 32 bucket reads at once hold at most 128 MiB: a change past the first
# 4 MiB of a page does not move its date.
MAX_FINGERPRINT_BYTES: Final = 4 * 1024 * 1024
