"""The Schnapsen bot registry: every registered bot parses, plays a legal action, and is refused where
its kind says so (sample counts, honest evaluations)."""

import numpy as np
import pytest

from analyzer.cards.rng import state_from_seed
from analyzer.errors import InputError
from analyzer.games.schnapsen import rules as R
from analyzer.games.schnapsen.bots import HeuristicParams
from analyzer.games.schnapsen.experiments import check_honest, parse_bot
from analyzer.games.schnapsen.kernels import init_round, legal_actions, shuffle_deck
from analyzer.games.schnapsen.play import BOTS, choose_action
from analyzer.games.schnapsen.search import new_workspace


def test_names_and_kernel_ids_are_unique():
    assert len({kind.policy for kind in BOTS.values()}) == len(BOTS)
    assert all(name == kind.name for name, kind in BOTS.items())
    # docs/commands.md: perfect sees every card; the seven sampling bots take a count.
    assert [name for name, kind in BOTS.items() if not kind.honest] == ["perfect"]
    assert {name for name, kind in BOTS.items() if kind.sampling} == {"pimc", "pimc_plus", "rollout", "hybrid", "hybrid_infer",
                                                                       "ismcts", "ismcts_hybrid"}


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_registered_bot_parses_and_plays_a_legal_action(name):
    bot = parse_bot(name if not BOTS[name].sampling else f"{name}:3")
    assert bot.policy == BOTS[name].policy
    ws = new_workspace()
    shuffle_deck(state_from_seed(7), ws.deck)
    init_round(ws.deck, 0, ws.state)
    legal = np.zeros(16, dtype=np.int64)
    n = legal_actions(ws.state, legal)
    action = choose_action(ws.state, bot.policy, bot.samples, HeuristicParams().to_array(), state_from_seed(1), ws)
    assert action in legal[:n] and ws.state[R.WINNER] < 0


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_sample_count_and_the_honest_evaluations_follow_the_registry(name):
    kind = BOTS[name]
    if kind.sampling:
        assert parse_bot(f"{name}:5").samples == 5
    else:
        with pytest.raises(InputError, match="take a sample count"):
            parse_bot(f"{name}:5")
    if kind.honest:
        check_honest(parse_bot(name))
    else:
        with pytest.raises(InputError, match="sees hidden cards"):
            check_honest(parse_bot(name))
