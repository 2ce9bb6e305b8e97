"""Schnapsen bots that search no hidden cards: ``random`` and the rule-based ``heuristic``, whose one
search is of the last tricks once the stock is exhausted and every card is known (``exact_endgame``).

All heuristic thresholds live in :class:`HeuristicParams`; kernels receive them as a float64 array
(``HeuristicParams.to_array``) so variants can be compared without recompiling. The default is the
current heuristic; :meth:`HeuristicParams.classic` freezes the earlier one (``heuristic:classic`` on the
command line), which the new rules reduce to when they are switched off.

What the heuristic looks at: its own hand, the cards played, the face-up trump card (the trump jack
after an exchange), the cards the opponent has shown he lacks (strict play), the counted and pending
points and tricks, and the number of cards in the opponent's hand. The opponent's *possible* cards are
the unplayed ones it neither holds nor sees face up nor knows he lacks: once the stock is exhausted,
exactly his hand.
"""

from dataclasses import astuple, dataclass, replace

import numpy as np
from numba import njit

from analyzer.cards.masks import highest_bit_index, popcount
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.kernels import (
    apply_action,
    copy_state,
    legal_actions,
    signed_result,
    stock_closed_or_exhausted,
)

_POINTS = R.CARD_POINTS
_SUITS = R.SUIT_MASKS

# indices into the parameter array (same order as the dataclass fields)
(_CLOSE_POINTS, _CLOSE_TRUMPS, _CLOSE_HIGH_TRUMPS, _WIN_WITH_HIGH, _TRUMP_MIN, _KEEP_MARRIAGE, _CLOSE_MARGIN,
 _WIN_DEAL, _TRUMP_HIGH_MIN, _SAVE_TENS, _STRICT_PLAN, _LEAD_MASTERS, _TRUMP_FOR_MARRIAGE, _DISCARD_ORDER, _SAVE_MARRIAGE,
 _EXACT_ENDGAME, _TRUMP_TO_CLOSE, _TAKE_DEAR) = range(18)
#: a parameter value that switches its rule off (no count of points or cards reaches it)
OFF = 1000


@dataclass(frozen=True)
class HeuristicParams:
    """Thresholds of the heuristic bot.

    Attributes
    ----------
    close_points : int
        Close the stock (when legal) only with at least this many counted points (``OFF``: never close).
    close_trumps : int
        Count rule of closing: close with at least this many trumps in hand... (``OFF``: rule off)
    close_high_trumps : int
        ...of which at least this many are the trump ace or ten.
    win_with_high : int
        While the stock is open, take a led card worth at least this many points with a higher
        card of its suit (an ace over a ten, say) when possible.
    trump_min : int
        While the stock is open, trump a led card worth at least this many points that cannot be
        beaten in its suit (with the lowest trump).
    keep_marriage : int
        1 to avoid throwing away a king or queen whose partner is still in play.
    close_margin : int
        Sure-points rule of closing: close when the counted points, the pending and one marriage in
        hand and the points of the sure tricks after closing (:func:`sure_points`) reach 66 plus this
        margin (``OFF``: rule off).
    win_deal : int
        1 to take a trick whenever taking it reaches 66, or when the opponent would reach 66 with it,
        and to announce a marriage that reaches 66 at once.
    trump_high_min : int
        While the stock is open, trump with the trump ten or ace (no lower trump in hand) only a led
        card worth at least this many points.
    save_tens : int
        1 to trump a led card with a trump below the ten, while the stock is open, rather than throw
        away a ten or an ace.
    strict_plan : int
        1 to lead, under strict play, the cards sure to win first (trumps above every trump the
        opponent may hold while he may hold one, then any card above all his possible cards of its
        suit), announcing a marriage whenever its king or queen is led, then any marriage.
    lead_masters : int
        While the stock is open, lead the cheapest card outside trumps that is above all the
        opponent's possible cards of its suit (only a trump can take it) when it is worth at most this
        many points, instead of the cheapest card (0: never, as J is worth 2).
    trump_for_marriage : int
        1 to trump, while the stock is open and the led card is not taken in its suit, with the
        lowest trump outside the marriage when holding a marriage (the trump marriage only with a
        third trump), to gain the lead and announce it.
    discard_order : int
        1 to throw away (and, while the stock is open, lead) cards in the order: kings, queens and jacks
        of suits the opponent cannot hold, jacks, kings and queens whose partner is played, those whose
        partner is still out, those whose partner is in hand, tens, aces (0: the cheapest card).
    save_marriage : int
        1 to take a led card, while the stock is open, with the cheapest card of its suit above it
        outside a marriage in hand when there is one (a ten or ace rather than the marriage's queen).
    exact_endgame : int
        1 to play, once the stock is exhausted (every card known), an action of the best game points
        for the deal by an exhaustive search of the last tricks (:func:`exact_endgame_values`): the
        rules' own action when it is among the best, else the first best.
    trump_to_close : int
        1 to trump, while the stock is open and can still be closed after the trick, a led card not taken
        in its suit with the lowest trump when the sure points after the trick reach 66 plus
        ``close_margin`` (:func:`sure_points` with the trick counted), so that the next lead closes.
    take_dear : int
        1 to take a led card, while the stock is open, in its suit with the dearest card above it (outside
        a marriage in hand), banking its points while it can still win a trick (a ten whose ace is out, an
        ace rather than a king kept for a marriage); 2 the same but the ten rather than the ace when both
        are among those cards (the ten banked, the ace kept); 0 with the cheapest card above it.
    """

    close_points: int = 0
    close_trumps: int = OFF
    close_high_trumps: int = OFF
    win_with_high: int = 0
    trump_min: int = 10
    keep_marriage: int = 0
    close_margin: int = -4
    win_deal: int = 1
    trump_high_min: int = 10
    save_tens: int = 1
    strict_plan: int = 1
    lead_masters: int = 10
    trump_for_marriage: int = 1
    discard_order: int = 1
    save_marriage: int = 1
    exact_endgame: int = 1
    trump_to_close: int = 1
    take_dear: int = 1

    @classmethod
    def classic(cls) -> "HeuristicParams":
        """The heuristic as it was before issue 15: closes by counts (46 points, 3 trumps, one of
        them the ace or ten), none of the later rules."""
        return cls(close_points=46, close_trumps=3, close_high_trumps=1, win_with_high=10, trump_min=10,
                   keep_marriage=1, close_margin=OFF, win_deal=0, trump_high_min=0, save_tens=0, strict_plan=0,
                   lead_masters=0, trump_for_marriage=0, discard_order=0, save_marriage=0, exact_endgame=0,
                   trump_to_close=0, take_dear=0)

    @classmethod
    def playout(cls) -> "HeuristicParams":
        """The heuristic as the search bots' play-outs use it: the rules before issue 41 (trumping leads
        from 3 points, no trump for a marriage, the cheapest discard, a marriage not kept when following),
        with which ``rollout`` and ``hybrid`` were measured."""
        return cls(trump_min=3, trump_for_marriage=0, discard_order=0, save_marriage=0, exact_endgame=0,
                   trump_to_close=0, take_dear=0)

    @classmethod
    def parse(cls, text: str, base: "HeuristicParams | None" = None) -> "HeuristicParams":
        """``base`` (default: the current heuristic) with the fields of ``name=value,...`` changed.

        Raises
        ------
        ValueError
            For an unknown field or a value that is not an integer.
        """
        changes = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, value = item.partition("=")
            if name not in cls.__dataclass_fields__:
                raise ValueError(f"unknown heuristic parameter {name!r}")
            changes[name] = int(value)
        return replace(base or cls(), **changes)

    def to_array(self) -> np.ndarray:
        """Return the parameters as the float64 array the kernels take."""
        return np.array(astuple(self), dtype=np.float64)


@njit(cache=True)
def _cheapest(cands, avoid):
    """Lowest-point card of ``cands`` outside ``avoid`` (falls back to all of ``cands``); -1 if none."""
    pool = cands & ~avoid
    if pool == 0:
        pool = cands
    best = -1
    for c in range(20):
        if (pool >> c) & 1 and (best < 0 or _POINTS[c] < _POINTS[best]):
            best = c
    return best


@njit(cache=True)
def _dearest(cands):
    best = -1
    for c in range(20):
        if (cands >> c) & 1 and (best < 0 or _POINTS[c] > _POINTS[best]):
            best = c
    return best


@njit(cache=True)
def _discard(cands, hand, played, opp, ordered):
    """The card of ``cands`` to throw away: with ``ordered`` the first of kings, queens and jacks of a
    suit ``opp`` (the opponent's possible cards) has none of, jacks, kings and queens whose partner is
    played, those whose partner is still out, those whose partner is in ``hand``, tens, aces (the
    cheapest within a class); else the cheapest card."""
    if not ordered:
        return _cheapest(cands, np.int64(0))
    best = -1
    best_rank = 0
    for c in range(20):
        if not (cands >> c) & 1:
            continue
        rank = c % 5
        if rank >= R.TEN:
            cls = 3 + rank  # tens 6, aces 7
        elif opp & _SUITS[c // 5] == 0:
            cls = 0
        elif rank == R.JACK:
            cls = 1
        else:
            partner = c + 1 if rank == R.QUEEN else c - 1
            cls = 5 if (hand >> partner) & 1 else 2 if (played >> partner) & 1 else 4
        key = 16 * cls + _POINTS[c]
        if best < 0 or key < best_rank:
            best, best_rank = c, key
    return best


@njit(cache=True)
def _taker(above, avoid, dear):
    """The card of ``above`` (cards of the led suit above the led card) to take the trick with, outside
    ``avoid`` when possible: with ``dear`` 1 the dearest, with 2 the dearest but the ten when the ace is
    there too, with 0 the cheapest."""
    pool = above & ~avoid
    if pool == 0:
        pool = above
    if dear == 0:
        return _cheapest(pool, np.int64(0))
    best = _dearest(pool)
    if dear == 2 and best % 5 == R.ACE and (pool >> (best - 1)) & 1:
        return best - 1
    return best


@njit(cache=True)
def _marriage_trump(hand, legal_trumps, trump):
    """The lowest trump of ``legal_trumps`` outside a marriage in ``hand``, when ``hand`` holds a marriage
    worth taking the lead for (a side marriage, or the trump marriage with a third trump); -1 if none."""
    pair = np.int64(3) << (trump * 5 + 1)
    spare = legal_trumps & ~pair if hand & pair == pair else legal_trumps
    if spare == 0:
        return -1
    for suit in range(4):
        if (hand >> (suit * 5 + 1)) & 3 == 3:
            return _cheapest(spare, np.int64(0))
    return -1


@njit(cache=True)
def _married(hand):
    """Kings and queens of ``hand`` whose partner is in ``hand`` too."""
    pairs = np.int64(0)
    for suit in range(4):
        if (hand >> (suit * 5 + 1)) & 3 == 3:
            pairs |= np.int64(3) << (suit * 5 + 1)
    return pairs


@njit(cache=True)
def _marriage_cards(hand, played):
    """Kings and queens whose partner is in ``hand`` or still unplayed (worth keeping)."""
    keep = np.int64(0)
    for suit in range(4):
        q = suit * 5 + 1
        k = suit * 5 + 2
        if (hand >> q) & 1 and not (played >> k) & 1:
            keep |= np.int64(1) << q
        if (hand >> k) & 1 and not (played >> q) & 1:
            keep |= np.int64(1) << k
    return keep


@njit(cache=True)
def _masters(hand, played):
    """Cards of ``hand`` that beat every unplayed card of their suit held by others."""
    out = np.int64(0)
    for c in range(20):
        if (hand >> c) & 1:
            top = (c // 5) * 5 + 4
            higher_out = False
            for d in range(c + 1, top + 1):
                if not (hand >> d) & 1 and not (played >> d) & 1:
                    higher_out = True
            if not higher_out:
                out |= np.int64(1) << c
    return out


@njit(cache=True)
def opponent_possible(s, p):
    """Cards the opponent of ``p`` may hold, as ``p`` sees it: unplayed, not in ``p``'s hand, not the
    face-up trump card and not among the cards the opponent has shown he lacks."""
    out = R.FULL_MASK & ~s[R.HAND0 + p] & ~s[R.PLAYED] & ~s[R.NOT_HELD0 + 1 - p]
    if s[R.DRAWN] < R.STOCK_SIZE:
        out &= ~(np.int64(1) << s[R.STOCK + 9])
    return out


@njit(cache=True)
def _above_all(hand, opp, suit):
    """Cards of ``hand`` in ``suit`` that beat every card of ``opp`` in that suit."""
    mine = hand & _SUITS[suit]
    theirs = opp & _SUITS[suit]
    if theirs == 0:
        return mine
    return mine & ~((np.int64(1) << (highest_bit_index(theirs) + 1)) - 1)


@njit(cache=True)
def sure_winners(hand, opp, trump, opp_cards):
    """Cards of ``hand`` sure to win tricks when led one after another under strict play, against an
    opponent holding ``opp_cards`` cards among ``opp``: the trumps above all of his possible trumps;
    if they are at least as many as the trumps he can hold, he is out of trumps after them, so every
    trump and every card above all his possible cards of its suit also wins."""
    sure = _above_all(hand, opp, trump)
    if popcount(sure) >= min(popcount(opp & _SUITS[trump]), opp_cards):
        sure = hand & _SUITS[trump]
        for suit in range(4):
            if suit != trump:
                sure |= _above_all(hand, opp, suit)
    return sure


@njit(cache=True)
def _marriage_value(hand, trump):
    """Value of the best marriage (king and queen of a suit) in ``hand``; 0 if none."""
    best = 0
    for suit in range(4):
        if (hand >> (suit * 5 + 1)) & 3 == 3:
            best = max(best, 40 if suit == trump else 20)
    return best


@njit(cache=True)
def sure_points(s, p):
    """Points ``p`` (on lead) is sure to count if the stock were closed now and he led his
    :func:`sure_winners` first: his counted points, the card points of those tricks (the opponent
    throws his cheapest possible cards), his pending marriage points once he has a trick, and his best
    marriage in hand, announced after them (credited once he has a trick)."""
    return _sure_points_of(s[R.HAND0 + p], s[R.POINTS0 + p], s[R.PENDING0 + p], s[R.TRICKS0 + p] > 0,
                           opponent_possible(s, p), popcount(s[R.HAND0 + 1 - p]), s[R.TRUMP])


@njit(cache=True)
def _sure_points_of(hand, points, pending, has_trick, opp, opp_cards, trump):
    """:func:`sure_points` of ``hand`` with ``points`` counted and ``pending`` (``has_trick``: a trick
    won already) against an opponent holding ``opp_cards`` cards among ``opp``."""
    sure = sure_winners(hand, opp, trump, opp_cards)
    n = popcount(sure)
    total = points
    for c in range(20):
        if (sure >> c) & 1:
            total += _POINTS[c]
    # the opponent's n cards are worth at least his n cheapest possible cards
    need = n
    for rank in range(5):
        for suit in range(4):
            if need > 0 and (opp >> (suit * 5 + rank)) & 1:
                total += _POINTS[rank]
                need -= 1
    if n > 0 or has_trick:
        total += pending + _marriage_value(hand, trump)
    return total


@njit(cache=True)
def _sure_points_after_trumping(s, p, lead, trump_card):
    """:func:`sure_points` of ``p`` (following ``lead`` while the stock is open) once ``trump_card`` has
    taken the trick and both have drawn: his hand less ``trump_card``, the trick's points counted with his
    pending ones, the opponent back to five cards (the card ``p`` draws can only add)."""
    points = s[R.POINTS0 + p] + s[R.PENDING0 + p] + _POINTS[lead] + _POINTS[trump_card]
    return _sure_points_of(s[R.HAND0 + p] & ~(np.int64(1) << trump_card), points, np.int64(0), np.bool_(True),
                           opponent_possible(s, p), R.HAND_SIZE, s[R.TRUMP])


@njit(cache=True)
def _announce(card, hand):
    """The lead of ``card``, announcing its marriage when it is a king or queen whose partner is in hand."""
    rank = card % 5
    if rank == R.QUEEN and (hand >> (card + 1)) & 1:
        return card + R.MARRIAGE_OFFSET
    if rank == R.KING and (hand >> (card - 1)) & 1:
        return card + R.MARRIAGE_OFFSET
    return card


@njit(cache=True)
def _strict_lead(s, p, hand, trump, best_marriage, keep):
    """Lead under strict play: trumps above all the opponent's possible trumps while he may hold one (to
    draw them), else the dearest card above all his possible cards of its suit (a side suit only where
    he may follow while he may hold a trump: else he would trump it), then a marriage, then the cheapest
    card outside trumps and kept kings and queens."""
    opp = opponent_possible(s, p)
    trumps = hand & _SUITS[trump]
    opp_trumps = opp & _SUITS[trump]
    top = _above_all(hand, opp, trump)
    if top and opp_trumps:
        return _announce(_dearest(top), hand)
    masters = np.int64(0)
    for suit in range(4):
        if suit != trump and (opp_trumps == 0 or opp & _SUITS[suit]):
            masters |= _above_all(hand, opp, suit)
    if opp_trumps == 0:
        masters |= trumps
    if masters:
        return _announce(_dearest(masters), hand)
    if best_marriage >= 0:
        return best_marriage
    return _cheapest(hand & ~trumps if hand & ~trumps else hand, keep)


@njit(cache=True)
def _winning_trump_lead(s, p, hand, trump):
    """A trump above every trump the opponent may hold whose trick reaches 66 even against his cheapest
    possible card (the cheapest such trump); -1 if none."""
    if s[R.POINTS0 + p] + s[R.PENDING0 + p] + 2 * 11 < R.WIN_POINTS:
        return -1  # no trick of two cards reaches 66: skip the counting (a third of the bot's time)
    opp = opponent_possible(s, p)
    if opp == 0:
        return -1
    least = 11
    for c in range(20):
        if (opp >> c) & 1:
            least = min(least, _POINTS[c])
    have = s[R.POINTS0 + p] + s[R.PENDING0 + p] + least
    top = _above_all(hand, opp, trump)
    best = -1
    for c in range(20):
        if (top >> c) & 1 and have + _POINTS[c] >= R.WIN_POINTS and (best < 0 or _POINTS[c] < _POINTS[best]):
            best = c
    return best


@njit(cache=True)
def _deal_winner(s, p, lead, legal, trump):
    """Follower's card when the trick decides the deal: the cheapest card that wins the trick and
    reaches 66, else, when the leader would reach 66 with the cheapest card lost to him, the cheapest
    card that wins the trick; -1 when neither applies."""
    suit = lead // 5
    winners = legal & _SUITS[suit] & ~((np.int64(1) << (lead + 1)) - 1)
    if suit != trump:
        winners |= legal & _SUITS[trump]
    if winners == 0:
        return -1
    value = _POINTS[lead]
    mine = s[R.POINTS0 + p] + s[R.PENDING0 + p] + value
    o = 1 - p
    if max(mine, s[R.POINTS0 + o] + s[R.PENDING0 + o] + value) + 11 < R.WIN_POINTS:
        return -1  # nobody reaches 66 with this trick, whatever is played to it
    best = -1
    for c in range(20):
        if (winners >> c) & 1 and mine + _POINTS[c] >= R.WIN_POINTS and (
                best < 0 or _POINTS[c] < _POINTS[best]):
            best = c
    if best >= 0:
        return best
    losers = legal & ~winners
    if losers and s[R.POINTS0 + o] + s[R.PENDING0 + o] + value + _POINTS[_cheapest(losers, np.int64(0))] >= R.WIN_POINTS:
        return _cheapest(winners, np.int64(0))
    return -1


#: plies of the last five tricks, marriages announced on their leads included
_ENDGAME_PLIES = 2 * R.HAND_SIZE
#: game points of a deal lie in [-3, 3]: a window from -4 to 4 asks for the exact value
_FULL = 4


@njit(cache=True)
def _endgame_workspace():
    """Scratch of :func:`_endgame_search`: states, ordered moves, counts, moves tried, best values and
    the window (alpha, beta) of each ply."""
    plies = _ENDGAME_PLIES + 2
    return (np.empty((plies, R.STATE_SIZE), dtype=np.int64), np.empty((plies, 16), dtype=np.int64),
            np.zeros(plies, dtype=np.int64), np.zeros(plies, dtype=np.int64), np.zeros(plies, dtype=np.int64),
            np.zeros(plies, dtype=np.int64), np.zeros(plies, dtype=np.int64))


@njit(cache=True)
def _ordered_moves(s, out):
    """The legal actions of ``s`` into ``out``, likeliest cut-offs first; return their count. A leader's
    marriage announcements come first, and the same king or queen led without its announcement is left
    out: with every card known the announcement is never worse (points only help their holder, and a deal
    won sooner scores at least as much). Then cards by points, dearest first."""
    n = legal_actions(s, out)
    announced = np.int64(0)
    for i in range(n):
        if out[i] >= R.MARRIAGE_OFFSET:
            announced |= np.int64(1) << (out[i] - R.MARRIAGE_OFFSET)
    m = 0
    for i in range(n):
        a = out[i]
        if a < R.MARRIAGE_OFFSET and (announced >> a) & 1:
            continue
        out[m] = a
        m += 1
    lead = s[R.LEAD_CARD]
    trump = s[R.TRUMP]
    # insertion sort by score, at most seven moves
    for i in range(1, m):
        a = out[i]
        key = _move_score(a, lead, trump)
        j = i - 1
        while j >= 0 and _move_score(out[j], lead, trump) < key:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = a
    return m


@njit(cache=True, inline="always")
def _move_score(a, lead, trump):
    if a >= R.MARRIAGE_OFFSET:
        return 100 + _POINTS[a - R.MARRIAGE_OFFSET]
    if lead < 0:
        return _POINTS[a]
    wins = (a // 5 == lead // 5 and a > lead) or (a // 5 == trump and lead // 5 != trump)
    return (50 if wins else 0) - _POINTS[a]


@njit(cache=True, inline="always")
def _best_case(s, q):
    """The most game points ``q`` can still win the running deal ``s`` with (stock not closed): 3 while his
    opponent has no trick, 2 while he has fewer than 33 points, else 1 (his points and tricks only grow)."""
    o = 1 - q
    if s[R.TRICKS0 + o] == 0:
        return 3
    return 2 if s[R.POINTS0 + o] < R.SCHNEIDER_POINTS else 1


@njit(cache=True)
def _endgame_search(root, p, alpha, beta, ws):
    """Fail-soft alpha-beta value, for ``p``, of ``root`` (the stock exhausted, both hands known, the deal
    running): the exact value when it lies strictly inside (``alpha``, ``beta``), else a bound on the same
    side of the window. A side that reaches its :func:`_best_case` stops looking."""
    states, moves, counts, tried, best, lo, hi = ws
    copy_state(states[1], root)
    depth = 1
    counts[1] = _ordered_moves(root, moves[1])
    tried[1] = 0
    best[1] = -_FULL if root[R.TO_MOVE] == p else _FULL
    lo[1] = alpha
    hi[1] = beta
    while True:
        node = states[depth]
        maxing = node[R.TO_MOVE] == p
        b = best[depth]
        if maxing:
            done = b >= hi[depth] or b >= _best_case(node, p)
        else:
            done = b <= lo[depth] or b <= -_best_case(node, 1 - p)
        if tried[depth] < counts[depth] and not done:
            child = states[depth + 1]
            copy_state(child, node)
            apply_action(child, moves[depth, tried[depth]])
            tried[depth] += 1
            last = child[R.HAND0 + child[R.TO_MOVE]]
            while child[R.WINNER] < 0 and last & (last - 1) == 0:  # one card left: forced to the end
                apply_action(child, highest_bit_index(last))
                last = child[R.HAND0 + child[R.TO_MOVE]]
            if child[R.WINNER] >= 0:
                v = signed_result(child, p)
                best[depth] = max(b, v) if maxing else min(b, v)
            else:
                lo[depth + 1] = max(lo[depth], b) if maxing else lo[depth]
                hi[depth + 1] = hi[depth] if maxing else min(hi[depth], b)
                depth += 1
                counts[depth] = _ordered_moves(child, moves[depth])
                tried[depth] = 0
                best[depth] = -_FULL if child[R.TO_MOVE] == p else _FULL
            continue
        v = best[depth]
        depth -= 1
        if depth == 0:
            return v
        parent_max = states[depth][R.TO_MOVE] == p
        best[depth] = max(best[depth], v) if parent_max else min(best[depth], v)


@njit(cache=True)
def _after(s, a, p, out):
    """``out`` := ``s`` with the opponent's hand filled in (his possible cards, the stock exhausted) and
    ``a`` played."""
    copy_state(out, s)
    out[R.HAND0 + 1 - p] = opponent_possible(s, p)
    apply_action(out, a)


@njit(cache=True)
def exact_endgame_values(s, acts, n, vals):
    """Fill ``vals[:n]`` with the game points of the deal (+ won, - lost) for the player to move in ``s``
    after each of the ``n`` actions ``acts``, both sides then playing best, once the stock is exhausted:
    the opponent's hand is then his possible cards (:func:`opponent_possible`), every card known. An
    alpha-beta search of at most the last five tricks with the full window (:func:`_endgame_search`)."""
    p = s[R.TO_MOVE]
    ws = _endgame_workspace()
    root = np.empty(R.STATE_SIZE, dtype=np.int64)
    for i in range(n):
        _after(s, acts[i], p, root)
        vals[i] = signed_result(root, p) if root[R.WINNER] >= 0 else _endgame_search(root, p, -_FULL, _FULL, ws)
    return n


@njit(cache=True)
def _exact_endgame_pick(s, buf, n, rule):
    """The action ``rule`` when the endgame search rates it among the best of the ``n`` in ``buf``, else the
    first best in ``buf``'s order: ``rule``'s exact value first, then each other action asked only whether
    it beats the best so far (the window's floor at it), none once the best reaches :func:`_best_case`."""
    p = s[R.TO_MOVE]
    ws = _endgame_workspace()
    root = np.empty(R.STATE_SIZE, dtype=np.int64)
    _after(s, rule, p, root)
    top = signed_result(root, p) if root[R.WINNER] >= 0 else _endgame_search(root, p, -_FULL, _FULL, ws)
    pick = rule
    most = _best_case(s, p)
    for i in range(n):
        a = buf[i]
        if a == rule or top >= most:
            continue
        _after(s, a, p, root)
        v = signed_result(root, p) if root[R.WINNER] >= 0 else _endgame_search(root, p, top, _FULL, ws)
        if v > top:
            top, pick = v, a
    return pick


@njit(cache=True)
def heuristic_action(s, params, buf):
    """Return the heuristic bot's action in state ``s`` (``buf`` is scratch int64[>=16])."""
    return heuristic_pick(s, params, buf, legal_actions(s, buf))


@njit(cache=True, inline="always")
def heuristic_pick(s, params, buf, n):
    """The heuristic bot's action in state ``s`` among the ``n`` legal actions listed in ``buf`` (in the
    order :func:`kernels.legal_actions` lists them). Inlined: a call per decision cost the heuristic's
    play-outs 6-10% of their speed."""
    rule = _rule_pick(s, params, buf, n)
    if params[_EXACT_ENDGAME] > 0 and n > 1 and s[R.CLOSER] < 0 and s[R.DRAWN] >= R.STOCK_SIZE:
        return _exact_endgame_pick(s, buf, n, rule)
    return rule


@njit(cache=True, inline="always")
def _rule_pick(s, params, buf, n):
    """:func:`heuristic_pick` by the rules alone."""
    p = s[R.TO_MOVE]
    hand = s[R.HAND0 + p]
    trump = s[R.TRUMP]
    trumps = hand & _SUITS[trump]
    played = s[R.PLAYED]
    strict = stock_closed_or_exhausted(s)
    lead = s[R.LEAD_CARD]
    keep = _marriage_cards(hand, played) if params[_KEEP_MARRIAGE] > 0 else np.int64(0)
    if lead < 0:
        can_exchange = False
        can_close = False
        best_marriage = -1
        for i in range(n):
            a = buf[i]
            if a == R.EXCHANGE:
                can_exchange = True
            elif a == R.CLOSE:
                can_close = True
            elif a >= R.MARRIAGE_OFFSET and a % 5 == 1 and (
                    best_marriage < 0 or (a - R.MARRIAGE_OFFSET) // 5 == trump):
                best_marriage = a
        if can_exchange:
            return R.EXCHANGE
        if (params[_WIN_DEAL] > 0 and best_marriage >= 0 and s[R.TRICKS0 + p] > 0
                and s[R.POINTS0 + p] + _marriage_value(hand, trump) >= R.WIN_POINTS):
            return best_marriage
        if params[_WIN_DEAL] > 0 and not strict:
            winning = _winning_trump_lead(s, p, hand, trump)
            if winning >= 0:
                return _announce(winning, hand)
        if can_close and s[R.POINTS0 + p] >= params[_CLOSE_POINTS]:
            high = popcount(trumps & ((np.int64(1) << (trump * 5 + 3)) | (np.int64(1) << (trump * 5 + 4))))
            if popcount(trumps) >= params[_CLOSE_TRUMPS] and high >= params[_CLOSE_HIGH_TRUMPS]:
                return R.CLOSE
            if sure_points(s, p) >= R.WIN_POINTS + params[_CLOSE_MARGIN]:
                return R.CLOSE
        if strict and params[_STRICT_PLAN] > 0:
            return _strict_lead(s, p, hand, trump, best_marriage, keep)
        if best_marriage >= 0:
            return best_marriage
        if strict:
            masters = _masters(hand, played)
            opp_trumps = _SUITS[trump] & ~played & ~hand
            if masters & trumps and opp_trumps:
                return _dearest(masters & trumps)
            if masters & ~trumps:
                return _dearest(masters & ~trumps)
            return _cheapest(hand & ~trumps if hand & ~trumps else hand, keep)
        plain = hand & ~trumps & ~keep
        if params[_LEAD_MASTERS] > 0 and plain:
            opp = opponent_possible(s, p)
            safe = np.int64(0)
            for suit in range(4):
                if suit != trump:
                    safe |= _above_all(plain, opp, suit)
            if safe and _POINTS[_cheapest(safe, np.int64(0))] <= params[_LEAD_MASTERS]:
                return _cheapest(safe, np.int64(0))
        return _discard(plain if plain else hand & ~trumps if hand & ~trumps else hand, hand, played,
                        opponent_possible(s, p), params[_DISCARD_ORDER] > 0)
    legal = np.int64(0)
    for i in range(n):
        legal |= np.int64(1) << buf[i]
    if params[_WIN_DEAL] > 0:
        decisive = _deal_winner(s, p, lead, legal, trump)
        if decisive >= 0:
            return decisive
    suit = lead // 5
    above = legal & _SUITS[suit] & ~((np.int64(1) << (lead + 1)) - 1)
    my_trumps = legal & _SUITS[trump] if suit != trump else np.int64(0)
    value = _POINTS[lead]
    if strict:
        winners = above | my_trumps
        if winners:
            return _dearest(winners & ~trumps) if winners & ~trumps else _cheapest(winners, np.int64(0))
        return _cheapest(legal, keep)
    if above:
        c = _taker(above, keep | _married(hand) if params[_SAVE_MARRIAGE] > 0 else keep, np.int64(params[_TAKE_DEAR]))
        if value >= params[_WIN_WITH_HIGH] or _POINTS[c] < 10:
            return c
    low_trump = _cheapest(my_trumps, np.int64(0)) if my_trumps else -1
    if (params[_TRUMP_TO_CLOSE] > 0 and low_trump >= 0 and s[R.DRAWN] + 2 <= R.STOCK_SIZE - 2
            and _sure_points_after_trumping(s, p, lead, low_trump) >= R.WIN_POINTS + params[_CLOSE_MARGIN]):
        return low_trump
    if params[_TRUMP_FOR_MARRIAGE] > 0:
        for_marriage = _marriage_trump(hand, my_trumps, trump)
        if for_marriage >= 0:
            return for_marriage
    if low_trump >= 0 and value >= params[_TRUMP_MIN] and (
            _POINTS[low_trump] < 10 or value >= params[_TRUMP_HIGH_MIN]):
        return low_trump
    plain = legal & ~trumps
    if params[_DISCARD_ORDER] > 0:
        discard = _discard(plain if plain else legal, hand, played | (np.int64(1) << lead), opponent_possible(s, p),
                           np.bool_(True))
    else:
        discard = _cheapest(plain if plain else legal, keep)
    if params[_SAVE_TENS] > 0 and _POINTS[discard] >= 10 and low_trump >= 0 and _POINTS[low_trump] < 10:
        return low_trump
    return discard
