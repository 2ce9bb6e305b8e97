"""sampled-dd searches only the classes still in play (``in_play_classes``) and plays the cards of searching them all
(issue 39, session 17)."""

import itertools

import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.games.rikken import round_layout as L
from analyzer.games.rikken import sampled_dd
from analyzer.games.rikken.heuristic import default_params
from analyzer.games.rikken.kernels import apply_action, legal_actions, new_round
from analyzer.games.rikken.sampled_dd import _judged, choose_sampled, in_play_classes
from analyzer.solvers.dd.api import MoveVerdicts

from .test_sampled_dd import _endings

ACTIONS = [3, 9, 17, 40]  # one card per class, face up


def _asker(keeps_of, order, stop_after=None):
    """A solver twin for ``_judged``: the verdicts of the pattern ``keeps_of`` (card -> keeps), the moves searched in
    ``order``; ``stop_after`` moves searched, the budget runs out (the call is then incomplete)."""
    asked = []

    def ask(moves=None, until_fail=False):
        wanted = [c for c in order if moves is None or moves[0] >> c & 1]
        asked.append(wanted)
        keep = fail = 0
        for n, card in enumerate(wanted):
            if stop_after is not None and n == stop_after:
                return MoveVerdicts(keep, 0, fail, 0, False)
            if keeps_of[card]:
                keep |= 1 << card
            else:
                fail |= 1 << card
                if until_fail:
                    break
        return MoveVerdicts(keep, 0, fail, 0, True)

    return ask, asked


def _worth(pattern):
    """Each class's value in the world as worked out from the rule: 1 where it keeps, 0 everywhere if all alike."""
    return [0.0] * len(pattern) if len(set(pattern)) == 1 else [1.0 if k else 0.0 for k in pattern]


def test_the_classes_in_play_get_the_values_searching_every_class_gives():
    searched_fewer = 0
    for pattern in itertools.product([False, True], repeat=len(ACTIONS)):
        keeps_of = dict(zip(ACTIONS, pattern))
        expected = _worth(pattern)
        for play in itertools.product([False, True], repeat=len(ACTIONS)):
            if not any(play):
                continue
            for order in (ACTIONS, ACTIONS[::-1]):
                ask, asked = _asker(keeps_of, order)
                judged = _judged(ACTIONS, list(play) if not all(play) else None, ask)
                low, high = judged if judged is not None else ([0.0] * 4, [0.0] * 4)
                for i in range(len(ACTIONS)):
                    want = expected[i] if play[i] else 0.0
                    assert float(low[i]) == want and float(high[i]) == want, (pattern, play, order, i)
                searched_fewer += sum(len(a) for a in asked) < len(ACTIONS)
    assert searched_fewer > 50


def test_a_stopped_search_bounds_the_values_of_the_classes_in_play():
    for pattern in itertools.product([False, True], repeat=len(ACTIONS)):
        keeps_of = dict(zip(ACTIONS, pattern))
        for play in itertools.product([False, True], repeat=len(ACTIONS)):
            if not any(play) or all(play):
                continue
            for stop_after in range(sum(play) + 1):
                # Stopped among the classes in play, the bounds are those of 1 where a class keeps (as with every
                # class searched and stopped); stopped among the others, those of the value searching all gives.
                expected = [float(k) for k in pattern] if stop_after < sum(play) else _worth(pattern)
                ask, _ = _asker(keeps_of, ACTIONS, stop_after)
                judged = _judged(ACTIONS, list(play), ask)
                if judged is None:
                    continue
                low, high = judged
                for i in range(len(ACTIONS)):
                    if play[i]:
                        assert low[i] <= expected[i] <= high[i], (pattern, play, stop_after, i)
                    else:
                        assert not low[i] and not high[i]


def test_in_play_classes_by_hand():
    tolerance = 1e-9
    # Own's class (index 0) has high 1.0; class 1 can still reach it with 0.5 to come, class 2 (0 + 0.5) cannot.
    assert in_play_classes([1.0, 0.5, 0.0], [1.0, 0.5, 0.25], 0, 0.5, tolerance) == [True, True, False]
    assert in_play_classes([1.0, 0.5, 0.0], [1.0, 0.5, 0.25], 0, 1.0, tolerance) is None
    # Own's class is always in play, whatever its bounds.
    assert in_play_classes([3.0, 0.0], [3.0, 0.0], 1, 0.0, tolerance) is None
    # Own's class (0) is behind: class 2 (1 + 0.5) can no longer rank first against class 1's 2; with 1 to come
    # it reaches 2.0, a tie, and stays (the first of equals may be it).
    assert in_play_classes([0.0, 2.0, 1.0], [0.0, 2.0, 1.0], 0, 0.5, tolerance) == [True, True, False]
    assert in_play_classes([0.0, 2.0, 1.0], [0.0, 2.0, 1.0], 0, 1.0, tolerance) is None


def test_it_plays_the_card_and_draws_of_searching_every_class():
    # The oracle: choose_sampled with every class searched in every world (in_play_classes switched off).
    checked = pruned = 0
    for setup in _endings(14, 1717, 6):
        st = new_round(setup["hands"], setup["leader"], setup["contract_of"], setup["partner"], setup["trump"],
                       setup["called_card"], setup["blind"])
        for _ in range(12):
            seat = int(st[L.TURN])
            up, fd = legal_actions(st, seat)
            outs = []

            def counting(*args):
                play = in_play_classes(*args)
                outs.append(play is not None)
                return play

            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(sampled_dd, "in_play_classes", counting)
                stream = state_from_seed(checked)
                action = choose_sampled(st, seat, int(up), int(fd), default_params(), stream, {})
                patch.setattr(sampled_dd, "in_play_classes", lambda *args: None)
                full = state_from_seed(checked)
                assert choose_sampled(st, seat, int(up), int(fd), default_params(), full, {}) == action, checked
            assert (full == stream).all()
            pruned += any(outs)
            checked += 1
            apply_action(st, seat, action)
    assert checked > 100 and pruned > 10
