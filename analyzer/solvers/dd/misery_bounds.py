"""Misère bounds: a lone no-trump declarer who may take no more tricks (Misery, a 1 Alone that has its trick).

No card can be ruffed, so a trick goes to the highest card of the suit led.  The declarer wants to
duck every trick left, the three defenders want him to take one: they follow low under his cards
and keep the lead among themselves.  At a trick's start :func:`_lone_ducks` says whether he surely
ducks every trick or is surely made to take one; inside a trick :func:`_caught_in_trick` says
whether he surely takes the trick in progress.  Holdings are 13-bit masks (bit r = rank r), and a
holding's lowest card is compared as its lowest bit.
"""

import numpy as np
from numba import njit

from analyzer.solvers.dd.misery_cover import _failing_covered
from analyzer.solvers.dd.tables import COUNT, HIGHEST, SUIT_BITS


@njit(cache=True, inline="always")
def _below_in_order(mine, others, spare):
    """Whether ``mine``'s ``j``-th lowest card is below ``others``' ``j``-th lowest for every ``j`` up to the
    smaller of ``mine``'s count and ``others``' count less ``spare``."""
    rounds = COUNT[others] - spare
    while mine and rounds > 0:
        if (mine & -mine) > (others & -others):
            return False
        mine &= mine - 1
        others &= others - 1
        rounds -= 1
    return True


@njit(cache=True, inline="always")
def _defence(hands, declarer, suit):
    """The defenders' cards of ``suit``, the highest of their holders' lowest cards (0 when none holds
    it) and how many of them hold it."""
    others = np.int64(0)
    cover = np.int64(0)
    holders = 0
    for other in range(4):
        if other != declarer:
            held = (hands[other] >> (13 * suit)) & SUIT_BITS
            if held:
                others |= held
                cover = max(cover, held & -held)
                holders += 1
    return others, cover, holders


@njit(cache=True)
def _lone_ducks(hands, seat, declarer):
    """Whether a lone ``declarer`` at no trump, needing no more tricks, surely ducks the rest or surely
    takes a trick: 1 (ducks every trick), 0 (takes one), -1 (neither shown).  ``seat`` is on lead.

    The ``j``-th rule: with a defender on lead, he ducks every trick left when in each suit his
    ``j``-th lowest card is below the defenders' ``j``-th lowest (for ``j`` up to the shorter count).
    The defenders then lead every trick.  He follows with his highest card below the card led (one
    exists: his lowest is below their lowest); taking it and the card led out of the two sets keeps
    the rule, as in a greedy matching, and the defenders' other cards of the trick or discards only
    raise their ``j``-th lowest.  When void he discards his highest card of a suit, which keeps the
    rule there.  (His lowest would not do: against a defender's 3 and 9 his 2 and 5 must go under
    the 9 led first.)  When the rule fails in one suit only, :func:`_guarded` may show a defender
    who must cover him there; else ``misery_cover._failing_covered`` may show that the defenders who
    must follow in each failing suit cover him there (when it needs the counts of every suit, every
    card is relevant).

    A defender on lead makes him take this trick by leading a suit where his lowest card beats
    every defender's lowest (each defender holding it follows with his lowest; void ones discard).
    Otherwise :func:`_entry_catch` may show the defenders reach such a lead in two tricks.

    On lead, he loses this trick by leading a card below the lowest card of some defender holding
    its suit (that defender must overtake it); when no card is so, he takes it.  He surely ducks
    every trick when, besides such a lead, the ``j``-th rule holds afterwards: in the other suits
    it holds now (the defenders' discards only remove cards of theirs), and in the suit led he
    leads his highest card below that defender's lowest (the remaining cards, lower, pass the rule
    at least as well as after any other such lead) and every defender holding the suit gives up
    one card of it: their ``j``-th lowest cards can only rise, so the rule on his remaining cards
    against their present cards, for ``j`` up to their count less those holders, is enough.  When
    the rule fails in other suits, :func:`_guarded`'s count or ``_failing_covered``'s reaches shown
    now hold after the trick (his lead counts as a trick of a suit he follows, which lowers the
    longest defender's count of it), and a defender is then on lead.

    Returns (verdict, relevant cards): every card of the suits he holds (every card of the suits
    the entry uses for :func:`_entry_catch`'s catch).
    """
    mine_all = hands[declarer]
    relevant = np.int64(0)
    on_lead = seat == declarer
    failing = np.int64(0)  # suits where the j-th rule fails (typed: a literal 0 compiles _failing_covered twice)
    for suit in range(4):
        mine = (mine_all >> (13 * suit)) & SUIT_BITS
        if mine == 0:
            continue
        others, cover, _ = _defence(hands, declarer, suit)
        relevant |= (mine | others) << (13 * suit)
        if not on_lead and (mine & -mine) > cover and (hands[seat] >> (13 * suit)) & SUIT_BITS:
            return 0, relevant
        if not _below_in_order(mine, others, 0):
            failing |= 1 << suit
    if on_lead:
        safe_lead = False
        for suit in range(4):
            mine = (mine_all >> (13 * suit)) & SUIT_BITS
            others, cover, holders = _defence(hands, declarer, suit)
            if mine == 0 or (mine & -mine) > cover:
                continue
            safe_lead = True
            lead = HIGHEST[mine & (cover - 1)]
            rest = failing & ~(1 << suit)
            if not _below_in_order(mine ^ (1 << lead), others, holders):
                continue
            if rest & (rest - 1) == 0 and (rest == 0 or _guarded(hands, declarer, HIGHEST[rest])):
                return 1, relevant
            covered, every = _failing_covered(hands, declarer, rest)
            if covered:
                return 1, (hands[0] | hands[1] | hands[2] | hands[3]) if every else relevant
        return (-1 if safe_lead else 0), relevant
    if failing == 0 or (failing & (failing - 1) == 0 and _guarded(hands, declarer, HIGHEST[failing])):
        return 1, relevant
    covered, every = _failing_covered(hands, declarer, failing)
    if covered:
        return 1, (hands[0] | hands[1] | hands[2] | hands[3]) if every else relevant
    caught = _entry_catch(hands, seat, declarer)
    if caught != 0:
        return 0, caught
    return -1, relevant


@njit(cache=True)
def _guarded(hands, declarer, suit):
    """Whether a defender ``g`` surely plays above the declarer in every trick of ``suit`` he plays.

    For a defender on lead, when the ``j``-th rule holds in every suit but ``suit``.  ``g`` holds
    only cards of ``suit`` above the declarer's highest, so whenever ``g`` still holds the suit
    when it is led, ``g`` follows above any card the declarer plays and the declarer takes no trick
    of it; in the other suits the ``j``-th rule keeps him under (when void in a suit led, he
    discards a card of ``suit`` while he has one, else his highest of a suit where the rule holds).
    ``g`` holds the suit whenever the declarer does while

        Phi = g_s - d_s - sum over other suits u of max(0, min(d_u, l_u) - g_u)

    stays at least 0, where ``g_x`` and ``d_x`` are ``g``'s and the declarer's counts of suit
    ``x`` and ``l_u`` the longest defender's count of ``u``; so it is enough that Phi >= 0 now.
    Phi never falls, trick by trick: a trick of ``suit`` takes one card from ``g`` and one from
    the declarer.  A trick of ``u`` the declarer follows takes one card of ``u`` from every holder
    of it, so ``min(d_u, l_u)`` falls by at least one: if ``g`` follows too, the term of ``u`` does
    not rise; if ``g`` is void, it falls by at least one while ``g`` discards one card, which raises
    by at most one the term of its suit (or lowers ``g_s``).  In a trick of a suit the declarer is
    void in, its term is 0 and stays 0; he discards a card of ``suit`` (``d_s`` falls by one, or he
    holds none and is safe) and ``g`` loses at most one card.  Other defenders' discards only lower
    ``l_u``.  The counts of the suits he holds decide it (the caller's relevant cards hold every
    card of those suits).
    """
    mine = (hands[declarer] >> (13 * suit)) & SUIT_BITS
    for g in range(4):
        held = (hands[g] >> (13 * suit)) & SUIT_BITS
        if g == declarer or (held & -held) < mine:
            continue
        phi = COUNT[held] - COUNT[mine]
        for other in range(4):
            if other == suit:
                continue
            longest = 0
            for x in range(4):
                if x != declarer:
                    longest = max(longest, COUNT[(hands[x] >> (13 * other)) & SUIT_BITS])
            ours = COUNT[(hands[declarer] >> (13 * other)) & SUIT_BITS]
            phi -= max(0, min(ours, longest) - COUNT[(hands[g] >> (13 * other)) & SUIT_BITS])
        if phi >= 0:
            return True
    return False


@njit(cache=True)
def _entry_catch(hands, leader, declarer):
    """The cards that show the defenders make the declarer take one of the next two tricks, or 0.

    Some defender ``x`` (not on lead) holds a suit ``s`` where the declarer's lowest card beats
    every defender's lowest (a lead of ``s`` by ``x`` makes him take that trick), and the leader
    can put ``x`` on lead through another suit ``t``: the leader leads his lowest card of ``t``,
    ``x`` plays his highest, above the lowest card of every other defender holding ``t`` (who play
    those; void ones discard, keeping their lowest card of ``s``: each holds two cards or more).
    The declarer either takes that trick or ``x`` does, and nobody played a card of ``s``, unless
    the declarer, void in ``t``, discarded one: he then holds two cards of ``s`` or more, and his
    lowest card left still beats every defender's lowest.  Every card of ``s`` and ``t`` decides it.
    """
    present = hands[0] | hands[1] | hands[2] | hands[3]
    for suit in range(4):
        mine = (hands[declarer] >> (13 * suit)) & SUIT_BITS
        _, cover, _ = _defence(hands, declarer, suit)
        if mine == 0 or not (mine & -mine) > cover:
            continue
        for x in range(4):
            if x == declarer or x == leader or (hands[x] >> (13 * suit)) & SUIT_BITS == 0:
                continue
            for entry in range(4):
                led = (hands[leader] >> (13 * entry)) & SUIT_BITS
                held = (hands[x] >> (13 * entry)) & SUIT_BITS
                if entry == suit or led == 0 or held == 0:
                    continue
                if (hands[declarer] >> (13 * entry)) & SUIT_BITS == 0 and COUNT[mine] < 2:
                    continue
                top = np.int64(1) << HIGHEST[held]
                wins = (led & -led) < top
                for other in range(4):
                    follow = (hands[other] >> (13 * entry)) & SUIT_BITS
                    if other != declarer and other != leader and other != x and follow and (follow & -follow) > top:
                        wins = False
                if wins:
                    return (((present >> (13 * suit)) & SUIT_BITS) << (13 * suit)
                            | ((present >> (13 * entry)) & SUIT_BITS) << (13 * entry))
    return np.int64(0)


@njit(cache=True)
def _caught_in_trick(hands, leader, pos, led_suit, win_seat, win_card, declarer, present):
    """The cards that show a lone no-trump ``declarer`` takes the trick in progress, or 0 (not shown).

    ``pos`` cards are played; ``present`` holds the cards in hands and in the trick.  If he has
    played, he takes it when he is winning and every defender still to play can follow below his
    card or is void.  If not, each defender before him holding the suit plays at least his lowest
    card, so the trick's best card before him is at least the highest of those and the card now
    winning; he takes the trick when his lowest card of the suit beats that (every card of his
    does) and every defender after him can follow below his lowest or is void (below any card he
    plays).  A defender after him holding only higher cards must overtake his lowest.  The cards
    of the suit led at or above his lowest card (his card, when he has played) decide it: with
    their owners and the suit lengths fixed, so is who holds a card below it.
    """
    mine = (hands[declarer] >> (13 * led_suit)) & SUIT_BITS
    at = (declarer - leader) & 3
    winning = win_seat == declarer
    if at < pos and not winning:
        return np.int64(0)
    if not winning and mine == 0:
        return np.int64(0)
    floor = np.int64(1) << (win_card % 13)
    low = floor if winning else mine & -mine
    for step in range(pos, 4):
        other = (leader + step) & 3
        held = (hands[other] >> (13 * led_suit)) & SUIT_BITS
        if other == declarer or held == 0:
            continue
        if step < at:
            floor = max(floor, held & -held)
        elif (held & -held) > low:
            return np.int64(0)
    if not winning and low < floor:
        return np.int64(0)
    return ((present >> (13 * led_suit)) & SUIT_BITS & ~(low - 1)) << (13 * led_suit)
