"""The transposition table of the double-dummy search: position keys, lookups and stores.

Table entries follow partition search: a node's answer comes back with the cards whose ranks
decided it (winners by rank, counted quick tricks, the called card), and the entry fixes only the
owners of the cards still out at or above the lowest of those per suit, compared by rank among
the cards still out; every hand's suit lengths and the leader pick the bucket.  So one entry
answers for every position that differs only in small cards or in cards already played.  Entries
store bounds on the team's future tricks for the scalar games (``MODE_MAX``: team maximises,
``MODE_MIN``: team minimises) and a win/loss bit for windows with two finite ends
(``MODE_EXACT``), keyed with the count still needed.

The table lies at the end of the work array (``M_TT``), starting on a cache line: bucket after bucket
(``STRIDE`` words each), a head of ``HEAD`` words, its fill word (generation << 16 | entries used) and
a tag (the key's hash) per entry, then the bucket's entries, ``ENTRY`` words each (the pattern, the
two masked codes, the info word), so a probe's head and entries lie on one memory page.  An
entry matches a position whose codes, masked to the entry's relevant cards (the masks follow from
the entry's tops and the suit sizes), equal the entry's words.
"""

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.solvers.dd.layout import BUCKET, C_GEN, C_HEADS, C_NODES, C_TT_MASK, ENTRY, HEAD, M_CTX, STRIDE
from analyzer.solvers.dd.tables import (
    BLIND, COUNT, HIGHEST, MODE_EXACT, MODE_MAX, MODE_MIN, SELECT, SPREAD, SUIT_BITS, _gather,
)


E_PATTERN = 0
E_WORD0 = 1
E_WORD1 = 2
# bounds (16 bits) | best move + 1 (8 bits) << 16 | relevance tops (16 bits) << 24 | extra (22 bits) << 40.
# The entry's masks are not stored: the tops and the pattern's suit sizes give them (``_keep_masks``).
E_INFO = 3
BOUNDS_BITS = 0xFFFF  # lower bound + 256 * upper bound on the team's future tricks (win bit in MODE_EXACT)
TOPS_SHIFT = 24
TOPS_BITS = 0xFFFF
EXTRA_SHIFT = 40  # ``_pattern``'s extra word is below 2^22, so the info word stays non-negative
FILL_BITS = 0xFFFF
MAX_CHAIN = 16  # buckets one key may spill over
TAG_HASH_BITS = -(1 << 32)


@njit(cache=True)
def _position(hands, present):
    """Owners of the cards still out, per suit from the top (2 bits each after a sentinel 1).

    Owner bits are gathered at the cards still out, so the lowest card out sits in bits 0-1 and
    cards compare by rank among the cards still out.  Returns the codes of suits C D packed in
    one word, of H S in another, and the suit sizes (4 bits per suit).
    """
    lo_bits = hands[1] | hands[3]
    hi_bits = hands[2] | hands[3]
    word0 = np.int64(0)
    word1 = np.int64(0)
    sizes = np.int64(0)
    for suit in range(4):
        out = (present >> (13 * suit)) & SUIT_BITS
        size = COUNT[out]
        sizes |= size << (4 * suit)
        lo = _gather((lo_bits >> (13 * suit)) & SUIT_BITS, out)
        hi = _gather((hi_bits >> (13 * suit)) & SUIT_BITS, out)
        code = (np.int64(1) << (2 * size)) | SPREAD[lo] | (np.int64(SPREAD[hi]) << 1)
        if suit < 2:
            word0 |= code << (27 * suit)
        else:
            word1 |= code << (27 * (suit - 2))
    return word0, word1, sizes


@njit(cache=True, inline="always")
def _keep_masks(sizes, tops):
    """Masks of the position codes' bits for the top ``tops`` cards of each suit, sentinels included."""
    mask0 = np.int64(0)
    mask1 = np.int64(0)
    for suit in range(4):
        size = (sizes >> (4 * suit)) & 15
        drop = size - ((tops >> (4 * suit)) & 15)
        keep = ((np.int64(2) << (2 * size)) - 1) & ~((np.int64(1) << (2 * drop)) - 1)
        if suit < 2:
            mask0 |= keep << (27 * suit)
        else:
            mask1 |= keep << (27 * (suit - 2))
    return mask0, mask1


@njit(cache=True)
def _pattern(hands, seat, window, called, bidder):
    """Bucket identity: every hand's suit lengths, the leader, the call, the window.

    While the called card is out, the call is its suit, its rank among the cards out and the seat
    allowed blind leads; once it is played the call no longer changes the game and is left out, so
    solves of one team and trump under different calls (sharing a table generation) share those
    entries.  The extra word (seat 2 bits, call 10, window 10) stays below 2^22: an entry keeps it
    in its info word above ``EXTRA_SHIFT``.
    """
    pattern = np.int64(0)
    for owner in range(4):
        for suit in range(4):
            pattern |= COUNT[(hands[owner] >> (13 * suit)) & SUIT_BITS] << (4 * (4 * owner + suit))
    called_code = 0
    present = hands[0] | hands[1] | hands[2] | hands[3]
    if called >= 0 and (present >> called) & 1:
        out = (present >> (13 * (called // 13))) & SUIT_BITS
        called_code = (1 + popcount(out >> (called % 13 + 1))) | ((called // 13) << 4) | ((bidder + 1) << 6)
    return pattern, np.int64(seat | (called_code << 2) | (window << 12))


@njit(cache=True, inline="always")
def _hash(k0, k1):
    h = k0 * np.int64(-7046029254386353131)
    h ^= (h >> 29) ^ k1
    h *= np.int64(-4658895280553007687)
    return h ^ (h >> 32)


@njit(cache=True)
def _tops_of(relevant, present):
    """Per suit, how many cards still out rank at or above the lowest relevant card (4 bits per suit)."""
    tops = np.int64(0)
    for suit in range(4):
        rel = (relevant >> (13 * suit)) & SUIT_BITS
        if rel:
            out = (present >> (13 * suit)) & SUIT_BITS
            low = popcount((rel & -rel) - 1)
            tops |= COUNT[out >> low] << (4 * suit)
    return tops


@njit(cache=True)
def _cards_of_tops(tops, present):
    """The cards counted by ``tops``: the top cards still out of each suit."""
    cards = np.int64(0)
    for suit in range(4):
        count = (tops >> (4 * suit)) & 15
        if count:
            out = (present >> (13 * suit)) & SUIT_BITS
            # The lowest counted card is the (size - count)-th lowest card still out.
            floor = SELECT[out, COUNT[out] - count]
            cards |= np.int64(out >> floor << floor) << (13 * suit)
    return cards


@njit(cache=True, inline="always")
def _top_owner_bits(word0, word1, sizes):
    """The bits of position codes (or of their masks) for the top two cards of each suit, 4 bits per suit.

    A tag carries these bits of its entry's masked codes and of its mask, so a lookup rejects most
    entries of its pattern by the tag alone, without reading the entry.
    """
    bits = np.int64(0)
    for suit in range(4):
        size = (sizes >> (4 * suit)) & 15
        code = (word0 >> (27 * suit)) if suit < 2 else (word1 >> (27 * (suit - 2)))
        # The four bits below the suit's sentinel (bit 2 * size), zeros where the suit has fewer cards.
        bits |= (((code << 4) >> (2 * size)) & 15) << (4 * suit)
    return bits


@njit(cache=True, inline="always")
def _tag_word(tag, top_bits, top_mask):
    """A stored tag: the key's hash above bit 32, the mask of the top-card bits, the masked top-card bits."""
    return (tag & TAG_HASH_BITS) | (top_mask << 16) | (top_bits & top_mask)


@njit(cache=True, inline="always")
def _tag_query(tag, word0, word1, sizes):
    """What a lookup compares stored tags with: the key's hash above bit 32, the position's top-card bits."""
    return (tag & TAG_HASH_BITS) | _top_owner_bits(word0, word1, sizes)


@njit(cache=True, inline="always")
def _tag_admits(stored, query):
    """Whether a stored tag may belong to an entry matching the lookup's ``query`` (:func:`_tag_query`):
    same hash, same top-card bits where the entry fixes them."""
    return (stored ^ query) & (TAG_HASH_BITS | ((stored >> 16) & 0xFFFF)) == 0


# The table's offsets and bucket mask, read from the context, lie far below 2^40 (the work array is
# a few million words).  Masking them with this constant lets LLVM prove every table index
# non-negative, so numba's fix-up for negative indices drops out of the probe and the store.
OFFSET_BITS = (1 << 40) - 1


@njit(cache=True, inline="always")
def _fill(mem, head, gen):
    """Entries of this solve in the bucket whose head starts at ``head`` (a bucket filled by an older
    solve counts as empty)."""
    word = mem[head]
    return word & FILL_BITS if word >> 16 == gen else 0


# Compiled on its own, not inlined into search (one call per trick-start node): inlining it cost
# compile seconds, not speed (docs/performance.md, "Compile cost (session 8)").
@njit(cache=True)
def _tt_lookup(mem, pattern, extra, word0, word1, sizes, won, lo, hi, mode):
    """Scan the bucket chain for an entry that matches on its relevant cards and decides the window.

    Returns (verdict 1/0 or -1, the entry's relevance tops, the best move of a matching entry or -1).  The
    pattern and the extra word are compared before the masked codes: a tag admits few entries of
    other patterns, and the masks are rebuilt from the entry's tops only for the entry that may match.
    """
    hint = np.int64(-1)
    gen = mem[M_CTX + C_GEN]
    tag = _hash(pattern, extra)
    query = _tag_query(tag, word0, word1, sizes)
    buckets = mem[M_CTX + C_TT_MASK] & OFFSET_BITS
    heads = mem[M_CTX + C_HEADS] & OFFSET_BITS
    for step in range(MAX_CHAIN):
        bucket = (tag + step) & buckets
        head = heads + STRIDE * bucket
        count = _fill(mem, head, gen)
        for i in range(count):
            if not _tag_admits(mem[head + 1 + i], query):
                continue
            entry = head + HEAD + ENTRY * i
            info = mem[entry + E_INFO]
            if mem[entry + E_PATTERN] != pattern or info >> EXTRA_SHIFT != extra:
                continue
            tops = (info >> TOPS_SHIFT) & TOPS_BITS
            mask0, mask1 = _keep_masks(sizes, tops)
            if word0 & mask0 != mem[entry + E_WORD0] or word1 & mask1 != mem[entry + E_WORD1]:
                continue
            verdict = _tt_verdict(info & BOUNDS_BITS, won, lo, hi, mode)
            if verdict >= 0:
                return verdict, tops, hint
            if hint < 0:
                hint = ((info >> 16) & 255) - 1
        if count < BUCKET:
            break
    return -1, np.int64(0), hint


@njit(cache=True, inline="always")
def _tt_verdict(bounds, won, lo, hi, mode):
    """What a table entry's bounds say about this window: 1 yes, 0 no, -1 not enough."""
    low = bounds & 255
    high = bounds >> 8
    if mode == MODE_MAX:
        if won + low >= lo:
            return 1
        if won + high < lo:
            return 0
        return -1
    if mode == MODE_MIN:
        if won + high <= hi:
            return 1
        if won + low > hi:
            return 0
        return -1
    return low


# Compiled on its own, not inlined into search (one call per searched trick-start node): inlining it cost
# compile seconds, not speed (docs/performance.md, "Compile cost (session 8)").
@njit(cache=True)
def _tt_store(mem, pattern, extra, word0, word1, sizes, tops, left, won, lo, hi, result, best, mode):
    """Record a searched trick-boundary node under its relevant cards: tighten the bounds on future tricks.

    A full bucket spills into the next one, up to ``MAX_CHAIN`` buckets; past that a random entry
    of the last bucket gives way.
    """
    gen = mem[M_CTX + C_GEN]
    tag = _hash(pattern, extra)
    buckets = mem[M_CTX + C_TT_MASK] & OFFSET_BITS
    heads = mem[M_CTX + C_HEADS] & OFFSET_BITS
    m0, m1 = _keep_masks(sizes, tops)
    w0 = word0 & m0
    w1 = word1 & m1
    stored = _tag_word(tag, _top_owner_bits(w0, w1, sizes), _top_owner_bits(m0, m1, sizes))
    key = tops | (extra << (EXTRA_SHIFT - TOPS_SHIFT))
    target = -1
    fresh = False
    for step in range(MAX_CHAIN):
        bucket = (tag + step) & buckets
        head = heads + STRIDE * bucket
        count = _fill(mem, head, gen)
        for i in range(count):
            entry = head + HEAD + ENTRY * i
            # Within one pattern (so one set of suit sizes) equal tops mean equal masks.
            if (mem[head + 1 + i] == stored and mem[entry + E_WORD0] == w0 and mem[entry + E_WORD1] == w1
                    and mem[entry + E_INFO] >> TOPS_SHIFT == key and mem[entry + E_PATTERN] == pattern):
                target = i
                break
        if target >= 0:
            break
        if count < BUCKET:
            target = count
            mem[head] = (gen << 16) | (count + 1)
            fresh = True
            break
        if step == MAX_CHAIN - 1:
            target = mem[M_CTX + C_NODES] & (BUCKET - 1)
            fresh = True
    # ``head`` is the target's bucket: the loop left it at the bucket it broke in or at the chain's last.
    entry = head + HEAD + ENTRY * target
    if fresh:
        mem[head + 1 + target] = stored
        mem[entry + E_PATTERN] = pattern
        mem[entry + E_WORD0] = w0
        mem[entry + E_WORD1] = w1
        mem[entry + E_INFO] = (left << 8) | (key << TOPS_SHIFT)
    info = mem[entry + E_INFO]
    if best >= 0:
        info = (info & ~(np.int64(255) << 16)) | ((best + 1) << 16)
    low = info & 255
    high = (info >> 8) & 255
    if mode == MODE_MAX:
        if result:
            low = max(low, lo - won)
        else:
            high = min(high, lo - won - 1)
    elif mode == MODE_MIN:
        if result:
            high = min(high, hi - won)
        else:
            low = max(low, hi - won + 1)
    else:
        low = 1 if result else 0
    mem[entry + E_INFO] = (info & ~np.int64(BOUNDS_BITS)) | low | (high << 8)


@njit(cache=True)
def _encode_move(move, present):
    """A lead as (suit, number of cards still out above it), so it carries over to matching positions."""
    if move < 0 or move >= BLIND:
        return np.int64(-1)
    suit = move // 13
    out = (present >> (13 * suit)) & SUIT_BITS
    return np.int64(suit * 16 + COUNT[out >> (move % 13 + 1)])


@njit(cache=True)
def _decode_move(code, present):
    """The card at the encoded place among the cards still out, or -1."""
    if code < 0:
        return np.int64(-1)
    suit = code // 16
    above = code % 16
    out = (present >> (13 * suit)) & SUIT_BITS
    for _ in range(above):
        if out == 0:
            return np.int64(-1)
        out ^= 1 << HIGHEST[out]
    if out == 0:
        return np.int64(-1)
    return np.int64(13 * suit + HIGHEST[out])


@njit(cache=True)
def _window_code(won, lo, hi, mode):
    """Part of the key that depends on the window: only windows with two finite ends need it."""
    if mode != MODE_EXACT:
        return 0
    return ((lo - won + 16) & 31) | (((hi - won + 16) & 31) << 5)
