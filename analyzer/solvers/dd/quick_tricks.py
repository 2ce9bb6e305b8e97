"""Sure tricks at a trick's start (the job of DDS's ``QuickTricks.cpp``).

The side on lead's cashable top cards, through an entry to a partner or shared with it, a
partner's ruff, both sides' sure trump tricks, a lone declarer's winners.  Each count comes with the
cards whose ranks decide it, which a table entry then fixes (partition search).
"""

import numpy as np
from numba import njit

from analyzer.cards.masks import popcount
from analyzer.cards.tricks import NO_TRUMP
from analyzer.solvers.dd.tables import COUNT, HIGHEST, SELECT, SUIT_BITS, SURE_AT, SURE_BEST, _gather


@njit(cache=True, inline="always")
def _top_run(held, out, suit):
    """Length of the run of ``held`` from the top of ``out`` down (13-bit ranks of ``suit``), and that
    run's cards as a card mask."""
    run = 0
    used = np.int64(0)
    while held & out:
        top = HIGHEST[out]
        if not (held >> top) & 1:
            break
        run += 1
        out ^= 1 << top
        used |= np.int64(1) << (13 * suit + top)
    return run, used


@njit(cache=True)
def _cash(hand, friends, suit, present, opp_len, one_partner):
    """Tricks a hand takes by cashing ``suit`` from the top: (tricks, the cards that make it so, top run).

    Its top run of cards still out wins one trick each.  When the run outlasts every opponent's
    length in the suit, the rest of the suit wins too (nobody else can follow any more), unless a
    partner (``friends``) would have to overtake and could strand the rest.  With a single partner
    (``one_partner``) that partner plays its lowest card of the suit each round under the hand's
    highest: the rest counts when its ``i``-th lowest card ranks below the hand's ``i``-th highest
    in every round both still follow, and the count depends on the cards still out down to the
    hand's last card compared or its lowest card of the rounds the opponents still follow,
    whichever is lower.  With more partners, none may hold a card above the hand's lowest,
    and the count depends on the cards still out down to that lowest.
    """
    held = (hand >> (13 * suit)) & SUIT_BITS
    run, used = _top_run(held, (present >> (13 * suit)) & SUIT_BITS, suit)
    if run == 0 or run < opp_len or COUNT[held] == run:
        return run, used, run
    friend_cards = (friends >> (13 * suit)) & SUIT_BITS
    if friend_cards == 0:
        # Partners void here: the suit lengths (part of the table key) settle it.
        return COUNT[held], used, run
    lowest = popcount((held & -held) - 1)
    if one_partner:
        # The partner plays its lowest card each round; it must stay below the hand's card then.
        # Which cards lie below the last card compared no longer matters.
        mine = held
        theirs = friend_cards
        for _ in range(min(COUNT[held], COUNT[friend_cards])):
            lowest = HIGHEST[mine]
            if popcount((theirs & -theirs) - 1) > lowest:
                return run, used, run
            mine ^= 1 << lowest
            theirs &= theirs - 1
        # The rounds the opponents still follow need the hand's top cards there to stay the top ones.
        tops = held
        for _ in range(opp_len - 1):
            tops ^= 1 << HIGHEST[tops]
        if opp_len > 0:
            lowest = min(lowest, HIGHEST[tops])
    elif HIGHEST[friend_cards] > lowest:
        return run, used, run
    below_lowest = (np.int64(1) << lowest) - 1
    all_out = (present >> (13 * suit)) & SUIT_BITS
    return COUNT[held], np.int64(all_out & ~below_lowest) << (13 * suit), run


@njit(cache=True, inline="always")
def _quick_ceiling(hands, leader, present, team):
    """A cheap upper bound on :func:`_quick_tricks`: each suit whose top card the leader's side holds
    counts at most the longest holding of the side in it (one hand cashes a suit), others none."""
    mine = (team >> leader) & 1
    ceiling = 0
    for suit in range(4):
        out = (present >> (13 * suit)) & SUIT_BITS
        if out == 0:
            continue
        top = np.int64(1) << (13 * suit + HIGHEST[out])
        longest = 0
        tops = False
        for seat in range(4):
            if (team >> seat) & 1 == mine:
                longest = max(longest, COUNT[(hands[seat] >> (13 * suit)) & SUIT_BITS])
                tops = tops or hands[seat] & top != 0
        if tops:
            ceiling += longest
    return ceiling


@njit(cache=True)
def _quick_tricks(hands, leader, trump, team, called):
    """Tricks the leader's side can cash at once, and the top cards that make it so.

    Counts the leader's own top cards per suit (all of a suit once opponents run out), or, when
    the leader can reach a partner through a suit whose top card that partner holds, the
    partner's cashable cards instead if that is more.  While opponents hold trumps, a side suit
    counts only for as many rounds as every opponent with trumps can follow (so none can ruff;
    the hands' suit lengths are part of the table key, so only the top cards are relevant).

    Unless the leader can draw them first: when its top run of the trumps still out is at least as
    long as every opponent's trumps, it leads that run.  Each of those cards is the top trump then
    and wins, every opponent with trumps must follow with one, so after as many rounds as the
    longest opponent holding none of them has a trump left, and the leader, still on lead, cashes
    its side suits as at no trump.  Its trump cash counts those rounds and more (the run is at
    least as long), and its side suits count in full.  The others' discards meanwhile only shorten
    the opponents' suits (which helps the count) and let a partner void in trumps shed its highest
    card of some suit, which keeps every rule of :func:`_cash` that the partner's cards pass.  The
    top run of trumps is among the cards the trump cash returns, so it stays relevant.

    With one partner and no opponent able to ruff, the leader also counts the suits whose top two
    cards it shares with the partner (:func:`_split_tops`).
    """
    mine = (team >> leader) & 1
    present = hands[0] | hands[1] | hands[2] | hands[3]
    opp_lens = np.int64(0)
    # Per suit, rounds before an opponent holding trumps can ruff (4 bits each; 13 = never).
    safe = np.int64(0)
    for suit in range(4):
        safe |= np.int64(13) << (4 * suit)
    opp_trumps = False
    side = np.int64(0)
    for other in range(4):
        if (team >> other) & 1 == mine:
            side |= hands[other]
        else:
            ruffs = trump != NO_TRUMP and (hands[other] >> (13 * trump)) & SUIT_BITS != 0
            opp_trumps = opp_trumps or ruffs
            for suit in range(4):
                length = COUNT[(hands[other] >> (13 * suit)) & SUIT_BITS]
                if length > (opp_lens >> (4 * suit)) & 15:
                    opp_lens = (opp_lens & ~(np.int64(15) << (4 * suit))) | (np.int64(length) << (4 * suit))
                if ruffs and suit != trump and length < (safe >> (4 * suit)) & 15:
                    safe = (safe & ~(np.int64(15) << (4 * suit))) | (np.int64(length) << (4 * suit))
    one_partner = popcount(team) == 2
    own_safe = safe
    if opp_trumps:
        trumps_out = (present >> (13 * trump)) & SUIT_BITS
        drawing, _ = _top_run((hands[leader] >> (13 * trump)) & SUIT_BITS, trumps_out, trump)
        if drawing >= (opp_lens >> (4 * trump)) & 15:
            own_safe = np.int64(0xDDDD)  # 13 rounds in every suit
    own, own_used = _cash_hand(hands[leader], side & ~hands[leader], present, opp_lens, own_safe, one_partner)
    best = own
    best_used = own_used
    if one_partner and not opp_trumps:
        side_seats = team if mine else ~team & 15
        best, split_used = _split_tops(hands, leader, _partner_of(side_seats, leader), present, opp_lens, own, called,
                                       trump)
        best_used |= split_used
    for hand in range(4):
        if hand == leader or (team >> hand) & 1 != mine:
            continue
        # Reach this partner: the leader leads a small card of a suit the partner tops.
        entry = np.int64(0)
        for suit in range(4):
            if (safe >> (4 * suit)) & 15 == 0:
                continue
            out = (present >> (13 * suit)) & SUIT_BITS
            if out and (hands[leader] >> (13 * suit)) & SUIT_BITS and (hands[hand] >> (13 * suit + HIGHEST[out])) & 1:
                entry = np.int64(1) << (13 * suit + HIGHEST[out])
                break
        if entry == 0:
            continue
        total, used = _cash_hand(hands[hand], side & ~hands[hand], present, opp_lens, safe, one_partner)
        used |= entry
        if not opp_trumps and own and popcount(hands[hand]) - total >= own:
            total += own
            used |= own_used
        if total > best:
            best = total
            best_used = used
    return best, best_used


@njit(cache=True)
def _partner_ruffs(hands, leader, trump, team):
    """Whether the leader's side surely takes the trick the leader leads by a partner's ruff.

    So when the leader holds a side suit some partner is void in while holding a trump, and every
    opponent holds that suit (must follow, so cannot ruff) or holds no trump: the leader leads the
    suit, the partner ruffs, and no opponent can beat a trump (a second partner's overruff keeps
    the trick on the side; DDS counts the same trick).  Who is void and who holds trumps is in the
    suit lengths, so no card decides it.
    """
    mine = (team >> leader) & 1
    for suit in range(4):
        if suit == trump or (hands[leader] >> (13 * suit)) & SUIT_BITS == 0:
            continue
        ruffer = False
        safe = True
        for other in range(4):
            if other == leader:
                continue
            held = (hands[other] >> (13 * suit)) & SUIT_BITS
            trumps = (hands[other] >> (13 * trump)) & SUIT_BITS
            if (team >> other) & 1 == mine:
                ruffer = ruffer or (held == 0 and trumps != 0)
            elif held == 0 and trumps != 0:
                safe = False
        if ruffer and safe:
            return True
    return False


@njit(cache=True, inline="always")
def _partner_of(seats, seat):
    """The other seat of a side of two ``seats``."""
    return popcount((seats & ~(1 << seat)) - 1)


@njit(cache=True)
def _split_tops(hands, leader, partner, present, opp_lens, own, called, trump):
    """The leader's cash ``own`` (no opponent can ruff) raised by the suits whose top two cards it shares
    with its one partner, and the cards that decide it; (``own``, 0) when no suit adds.

    In such a suit, with two cards or more in each hand, the side takes two tricks and the leader
    keeps the lead: holding the top card it leads low to the partner's second best (the top card is
    still in its hand, so that card wins), and the partner leads low back to the top card; with the
    partner holding the top card the leader leads low to it and the partner leads low back to the
    leader's second best.  The suit then counts two instead of its own cash.  The side plays these
    suits' two rounds first, each with cards of that suit only, and the leader is on lead after
    each; the other suits' cash (which the opponents' cards played meanwhile only shorten) follows,
    so the tricks add up.  A suit holding the called card still out is left out (its holder must
    play that card to the suit).

    Long cards after the two rounds (DDS's ``QtricksLeadHandNT``): when no opponent holds more than
    two cards of the suit, the two rounds exhaust them.  With the leader holding three or more and
    the partner exactly two, the partner is void after them too, so the leader's other cards of the
    suit are all that is left of it and each wins when the leader leads it: the suit counts the
    leader's length, and the leader keeps the lead (at no trump nobody can ruff; with trumps no
    opponent holds one, and a partner void in the suit discards, or holds only trumps and then
    takes every trick left by leading them).  With the roles reversed (the leader two cards, the
    partner three or more) at no trump, the suit played last counts the partner's length: the
    leader plays its top card in the first round (the partner follows low; the other top card is
    the partner's, so it wins), then leads its last card to the partner's top card, and the
    partner, on lead, cashes the rest.  Before it, the partner plays one card to each earlier trick
    and keeps its cards of the suit while it holds others (at no trump a void hand discards what it
    likes), so this needs the partner's other cards to number at least the earlier tricks.  The
    top two cards of each counted suit decide it, the suit lengths the rest.
    """
    tricks = own
    used = np.int64(0)
    # The suit the partner may cash last: its count, the partner's length there, the count it replaces.
    last_suit = -1
    last_count = 0
    last_before = 0
    for suit in range(4):
        out = (present >> (13 * suit)) & SUIT_BITS
        mine = (hands[leader] >> (13 * suit)) & SUIT_BITS
        theirs = (hands[partner] >> (13 * suit)) & SUIT_BITS
        if COUNT[mine] < 2 or COUNT[theirs] < 2 or (called >= 0 and called // 13 == suit and (present >> called) & 1):
            continue
        top = HIGHEST[out]
        pair = (1 << top) | (1 << HIGHEST[out ^ (1 << top)])
        if mine & pair == 0 or theirs & pair == 0:
            continue
        opp_len = (opp_lens >> (4 * suit)) & 15
        cash, _, _ = _cash(hands[leader], hands[partner], suit, present, opp_len, np.bool_(True))
        count = 2
        if opp_len <= 2 and COUNT[theirs] == 2:
            count = COUNT[mine]
        if cash < count:
            tricks += count - cash
            used |= np.int64(pair) << (13 * suit)
        if (trump == NO_TRUMP and opp_len <= 2 and COUNT[mine] == 2
                and COUNT[theirs] - max(cash, 2) > last_count - last_before):
            last_suit = suit
            last_count = COUNT[theirs]
            last_before = max(cash, 2)
    if last_suit >= 0:
        # Every other trick counted comes first; the partner needs a card outside the suit for each.
        before = tricks - last_before
        if popcount(hands[partner]) - last_count >= before:
            tricks = before + last_count
            out = (present >> (13 * last_suit)) & SUIT_BITS
            top = HIGHEST[out]
            used |= np.int64((1 << top) | (1 << HIGHEST[out ^ (1 << top)])) << (13 * last_suit)
    return tricks, used


@njit(cache=True, inline="always")
def _cash_hand(hand, friends, present, opp_lens, safe, one_partner):
    """Tricks one hand can cash from the top in every suit, and the cards that decide the count."""
    total = np.int64(0)  # typed: a literal 0 compiles _split_tops twice
    used = np.int64(0)
    for suit in range(4):
        tricks, cards, run = _cash(hand, friends, suit, present, (opp_lens >> (4 * suit)) & 15, one_partner)
        counted = min(tricks, (safe >> (4 * suit)) & 15)
        total += counted
        if counted <= run:
            # Only the top cards of the rounds counted decide the count.
            while popcount(cards) > counted:
                cards &= cards - 1
        used |= cards
    return total, used


@njit(cache=True)
def _sure_trumps(hands, trump, team, called, for_tricks):
    """Tricks each side's trumps must win whatever anyone plays, and the trumps that make it so.

    Take a seat's top ``i`` trumps and the ``h`` trumps of the other side above the lowest of them:
    each of those ``i`` cards is played some time, in ``i`` different tricks, and its side takes
    that trick unless an opponent's higher trump falls on it; each higher trump beats only one of
    them, so the side wins at least ``i - h`` tricks.  Two seats of a side may win in the same
    trick, so a side counts its best seat only.

    When both sides play for tricks (``for_tricks``: the team maximises its count), a side whose two
    seats hold the top two trumps, one each, with three trumps or more between them, can take two
    tricks (DDS's later tricks count the same); a side that wants to lose tricks may crash the two,
    so the rule is off otherwise.  Look at the first trick where
    either seat plays a trump.  Both tops are still out; each wins the trick it falls in unless the
    other falls there too, and once one has won, the other is the top trump and wins when played.
    If only one of the two seats plays a trump there, it may play its top: a seat that may play a
    small trump may play any trump (it follows trumps or is void in the suit led).  If both
    play trumps, they hold three or more between them, so one of them holds a small trump and
    plays it under the other's top.  With the called card among the trumps still out its holder
    may have to play it instead, so the rule then stays off.  The top two trumps decide it.

    Returns (team's sure tricks, others' sure tricks, relevant trumps).
    """
    present = ((hands[0] | hands[1] | hands[2] | hands[3]) >> (13 * trump)) & SUIT_BITS
    team_trumps = np.int64(0)
    for seat in range(4):
        if (team >> seat) & 1:
            team_trumps |= hands[seat]
    team_trumps = (team_trumps >> (13 * trump)) & SUIT_BITS
    other_trumps = present & ~team_trumps
    best_team = 0
    best_other = 0
    lowest = 13
    for seat in range(4):
        mine = (hands[seat] >> (13 * trump)) & SUIT_BITS
        if mine == 0:
            continue
        listed = mine | (other_trumps if (team >> seat) & 1 else team_trumps)
        code = (np.int64(1) << COUNT[listed]) | _gather(mine, listed)
        best = SURE_BEST[code]
        if best == 0:
            continue
        if (team >> seat) & 1:
            best_team = max(best_team, best)
        else:
            best_other = max(best_other, best)
        lowest = min(lowest, SELECT[listed, SURE_AT[code]])
    relevant = np.int64(0)
    if lowest < 13:
        relevant = np.int64(present >> lowest << lowest) << (13 * trump)
    if for_tricks and COUNT[present] >= 3 and (called < 0 or called // 13 != trump or not (present >> (called % 13)) & 1):
        top = HIGHEST[present]
        second = HIGHEST[present ^ (1 << top)]
        top_seat = -1
        second_seat = -1
        for seat in range(4):
            if (hands[seat] >> (13 * trump + top)) & 1:
                top_seat = seat
            if (hands[seat] >> (13 * trump + second)) & 1:
                second_seat = seat
        pair = COUNT[(hands[top_seat] >> (13 * trump)) & SUIT_BITS] + COUNT[(hands[second_seat] >> (13 * trump)) & SUIT_BITS]
        if top_seat != second_seat and (team >> top_seat) & 1 == (team >> second_seat) & 1 and pair >= 3:
            if (team >> top_seat) & 1 and best_team < 2:
                best_team = 2
                relevant |= np.int64((1 << top) | (1 << second)) << (13 * trump)
            elif not (team >> top_seat) & 1 and best_other < 2:
                best_other = 2
                relevant |= np.int64((1 << top) | (1 << second)) << (13 * trump)
    return best_team, best_other, relevant


@njit(cache=True)
def _lone_winners(hands, seat, on_lead, trump, present):
    """Tricks a lone ``seat`` surely takes by its trumps and side winners, and the cards that make it so.

    Its winners are its trumps and, in each side suit, its top run of the cards still out.  When no
    other hand holds a trump, each winner wins whenever it is played: as the led suit's top card
    nobody can ruff it, and a trump beats every other card.  The seat keeps its winners until it
    takes a trick: on a lead it can follow with a winner it plays one and wins; following with a
    smaller card loses nothing; void in the led suit it still holds a trump and ruffs.  Once it
    has taken a trick it leads its winners one by one, keeping the lead.  So it takes at least as
    many tricks as it holds winners.  On lead (``on_lead``) with a top run of trumps at least as
    long as every other hand's trumps, it first leads that run: each wins and every other hand
    must follow with its trumps until it has none, which leads to the case above.  Who holds
    trumps, and how many, is in the suit lengths; the top runs' cards decide the rest.

    Returns (tricks, relevant cards); (0, 0) when neither case applies.
    """
    mine = hands[seat]
    held = (mine >> (13 * trump)) & SUIT_BITS
    if held == 0:
        return 0, np.int64(0)
    tricks = COUNT[held]
    relevant = np.int64(0)
    if (present & ~mine) >> (13 * trump) & SUIT_BITS:
        if not on_lead:
            return 0, np.int64(0)
        longest = 0
        for other in range(4):
            if other != seat:
                longest = max(longest, COUNT[(hands[other] >> (13 * trump)) & SUIT_BITS])
        out = (present >> (13 * trump)) & SUIT_BITS
        run = 0
        while (held >> HIGHEST[out]) & 1:
            run += 1
            relevant |= np.int64(1) << (13 * trump + HIGHEST[out])
            out ^= 1 << HIGHEST[out]
        if run < longest:
            return 0, np.int64(0)
    for suit in range(4):
        if suit == trump:
            continue
        run, used = _top_run((mine >> (13 * suit)) & SUIT_BITS, (present >> (13 * suit)) & SUIT_BITS, suit)
        tricks += run
        relevant |= used
    return tricks, relevant
