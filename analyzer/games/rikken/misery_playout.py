"""A misère defender's card: the rule among equals (:func:`misery_defence_card`) and Open Misery defence by
play-outs in which the defenders do not see each other's cards.

sampled-dd solves each world double dummy, so its defenders see each other's hands: against an exposed
misère nearly every card "beats" it in every world (the partners always find the one line that works) and
ties decide (docs/rikken-bots.md, "Session 11"). Here the cards that tie over the solved worlds are told
apart by playing each world out to the end: the declarer by his policy's card (the heuristic's), every
defender, the seat itself included, by :func:`defender_card`, a rule that reads only what a defender sees
(his own hand, the declarer's exposed hand, the cards played). A card scores the weight of the worlds where
that play-out makes the declarer take a trick.

The rule, for a defender against one exposed misère (no trumps):

- leading: among the suits where the seat holds a catcher (a card under the declarer's lowest card of the
  suit), the one where the fewest unseen cards lie above that lowest card (a partner holding only such cards
  must go over it and let him duck); there, while unseen cards lie above it and he holds two or more of the
  suit, the seat's lowest card above it where it has one (a strip: he ducks, the partners follow and shed
  their cards of the suit, the catcher is kept for when they are out of it), else the highest catcher (the
  lower ones are kept for later leads); without a catcher, no rule (the heuristic's card);
- following before the declarer, while the trick is still under his lowest card of the suit: the highest
  card that stays under it; after him, while he wins the trick: the highest card under his; otherwise
  the highest card of the suit (the trick cannot catch him: shed a high card, keep the low ones);
- void: first the cards of suits he is void in or holds nothing above (they can never make him win), then
  the highest-ranked card.

Following after the declarer while he wins, it is :func:`misery_defence_card`, the rule sampled-dd's defenders
against any Misery keep among equals where the declarer's hand may be hidden.
"""

import numpy as np

from analyzer.cards.deck import FULL_DECK, N_RANKS
from analyzer.cards.tricks import NO_TRUMP
from analyzer.games.rikken.kernels import POLICY_HEURISTIC, apply_action, choose_action, legal_actions
from analyzer.games.rikken.round_layout import (
    CONTRACT,
    EXPOSED,
    HAND,
    KIND,
    KIND_MISERY,
    LED_SUIT,
    N_IN_TRICK,
    PLAYED,
    TRICK,
    TRICK_NO,
    TRICKS,
    TRUMP,
    TURN,
    WIN_SEAT,
    visible_hand,
)


def clean_misery_declarer(st, seat):
    """The declarer's seat when ``seat`` defends against one Misery contract, the round's only contract, in which
    the declarer has taken no trick yet (shown or not), else -1."""
    declarers = [d for d in range(4) if int(st[CONTRACT + d]) >= 0]
    if len(declarers) != 1:
        return -1
    d = declarers[0]
    if d == seat or int(st[KIND + d]) != KIND_MISERY or int(st[TRICKS + d]) > 0:
        return -1
    return d


def exposed_misery_declarer(st, seat):
    """The declarer's seat when ``seat`` defends against one Misery still clean whose hand alone is shown (an
    Open Misery after trick 1) and no trumps, else -1: where :func:`playout_values` applies."""
    d = clean_misery_declarer(st, seat)
    if d < 0 or int(st[TRUMP]) != NO_TRUMP:
        return -1
    if int(st[TRICK_NO]) < 1 or int(st[EXPOSED]) != 1 << d:
        return -1  # not shown yet, or an "All" contract: every hand shown, the solved worlds are exact
    return d


def _suit(mask, s):
    return (mask >> (N_RANKS * s)) & ((1 << N_RANKS) - 1)


def _low(bits):
    return (bits & -bits).bit_length() - 1


def _keep_low(led, follow, rank):
    """The highest card of ``follow`` (the seat's cards of the led suit, as rank bits) under ``rank``, else the
    highest of them."""
    under = follow & ((1 << rank) - 1) if 0 <= rank < 13 else 0
    return 13 * led + (under or follow).bit_length() - 1


def _lead_card(mine, under, theirs, lowest, guarded):
    """The rank of the lead in a suit where the seat holds catchers (``under``: the cards of ``mine`` under
    ``lowest``, the declarer's lowest of ``theirs``): the lowest card above it while a partner may still have to
    go over it (``guarded``: unseen cards above it) and the declarer keeps a card after ducking, else the highest
    catcher. Deal 6 of seed 716207316 (docs/rikken-bots.md, "Session 16"): W's one club under N's C3 C5 was
    led while the partners held six clubs above; perfect defence led C4 and caught him with C2 at the end."""
    above = mine >> (lowest + 1) << (lowest + 1)
    if guarded and above and theirs.bit_count() > 1:
        return _low(above)
    return under.bit_length() - 1


def misery_defence_card(st, seat, up):
    """The card a defender against Misery plays among equals when following suit, or -1 where the rule does
    not apply (the seat declares, some contract is not a Misery still clean, or it cannot follow).

    Keep the low cards, shed the high ones: the highest card below the card winning the trick, else the
    highest. A low card is what later forces the declarer to win a trick (led under his last card of a
    suit); a high card can only overtake him. With the declarer's hand hidden most worlds cannot tell the
    cards apart (a random hand rarely holds a misère), and the expert's card there, the heuristic's
    lowest, threw away the one card below the declarer's (docs/rikken-bots.md, "The issue's misère").
    """
    if int(st[CONTRACT + seat]) >= 0 or int(st[N_IN_TRICK]) == 0:
        return -1
    for d in range(4):
        if int(st[CONTRACT + d]) >= 0 and (int(st[KIND + d]) != KIND_MISERY or int(st[TRICKS + d]) > 0):
            return -1
    led = int(st[LED_SUIT])
    suit = _suit(int(up), led) if 0 <= led < 4 else 0
    if suit == 0 or suit << (N_RANKS * led) != int(up):
        return -1
    return _keep_low(led, suit, int(st[TRICK + int(st[WIN_SEAT])]) - 13 * led)


def defender_card(st, seat, up, declarer):
    """The rule's card (module notes) for defender ``seat`` among the legal cards ``up``, or -1 where the rule
    has none (a lead with no suit to go under, or the declarer's hand not shown)."""
    shown = int(visible_hand(st, seat, declarer))
    if shown < 0:
        return -1
    up = int(up)
    if int(st[N_IN_TRICK]) == 0:
        best, best_key = -1, None
        unseen = FULL_DECK & ~int(st[PLAYED]) & ~int(st[HAND + seat]) & ~shown
        for s in range(4):
            mine, theirs = _suit(up, s), _suit(shown, s)
            if mine == 0 or theirs == 0:
                continue
            lowest = _low(theirs)
            under = mine & ((1 << lowest) - 1)
            if under == 0:
                continue
            key = ((_suit(unseen, s) >> lowest).bit_count(), -(_suit(unseen, s) & ((1 << lowest) - 1)).bit_count())
            if best_key is None or key < best_key:
                best, best_key = 13 * s + _lead_card(mine, under, theirs, lowest, key[0] > 0), key
        return best
    led = int(st[LED_SUIT])
    follow = _suit(up, led)
    if follow == 0:
        useless = [c for c in range(52) if up >> c & 1 and (_suit(shown, c // 13) >> (c % 13)) == 0]
        pool = useless or [c for c in range(52) if up >> c & 1]
        return max(pool, key=lambda c: (c % 13, -c))
    highest = 13 * led + follow.bit_length() - 1
    if int(st[TRICK + declarer]) >= 0:
        return misery_defence_card(st, seat, up) if int(st[WIN_SEAT]) == declarer else highest
    theirs = _suit(shown, led)
    if theirs == 0 or int(st[TRICK + int(st[WIN_SEAT])]) - 13 * led >= _low(theirs):
        return highest
    return _keep_low(led, follow, _low(theirs))


def plays_out_beaten(world, seat, action, declarer, params, rng_state):
    """Whether, in the fully dealt ``world`` (a round state), ``seat`` playing ``action`` and everyone playing on
    as the module notes say makes the misère of ``declarer`` take a trick. ``params``: the heuristic's (the
    declarer's card, and a defender's where the rule has none); ``rng_state`` is left as it was."""
    st = world.copy()
    rng = rng_state.copy()
    apply_action(st, seat, action)
    while int(st[TRICKS + declarer]) == 0 and int(st[HAND + int(st[TURN])]) != 0:
        s = int(st[TURN])
        up, fd = legal_actions(st, s)
        card = -1 if s == declarer else defender_card(st, s, up, declarer)
        if card < 0:
            card = int(choose_action(st, s, up, fd, POLICY_HEURISTIC, params, rng))
        apply_action(st, s, card)
    return int(st[TRICKS + declarer]) > 0


def playout_values(worlds, seat, actions, declarer, params, rng_state):
    """Per action, the summed weight of the worlds ``(weight, state)`` where its play-out beats the misère
    (:func:`plays_out_beaten`)."""
    values = np.zeros(len(actions))
    for weight, state in worlds:
        for i, action in enumerate(actions):
            if plays_out_beaten(state, seat, action, declarer, params, rng_state):
                values[i] += weight
    return values

