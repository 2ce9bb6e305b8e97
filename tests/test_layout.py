"""The package layout: imports point one way (cli -> games -> experiments -> reports/solvers -> cards),
no game imports another, a game's engine and bots import none of its run code, the experiments machinery,
the reports or the CLI, there are no import cycles, and every game has the same rooms."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "analyzer"

# Rank of each top-level part of the package; a module may import only lower ranks or its own part.
# reports and solvers share a rank, so neither may import the other.
RANK = {"__main__": 6, "cli": 5, "games": 4, "experiments": 3, "reports": 2, "solvers": 2, "cards": 1,
        "errors": 0, "catalog": 0, "raw_memory": 0, "__init__": 0}
GAME_ROOMS = ("rules", "state", "kernels", "experiments", "summary", "charts")
# A game's run code: experiments and what they write, read and compare. Every other module of a game is
# its engine or a bot, which never imports run code, the experiments machinery, reports or the CLI.
RUN_ROOMS = {"experiments", "summary", "charts", "findings", "queries", "advice", "advice_chart", "advice_experiment",
             "advice_verdict", "compare", "pairing",
             "replay", "strategy", "strategy_charts", "strategy_duel", "strategy_fit"}
# Known exceptions, each with its reason: the dd policy moves the progress bar per solved deal.
ENGINE_EXCEPTIONS = {("analyzer.games.rikken.dd", "analyzer.experiments.progress")}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def resolve(name: str) -> str:
    """``name`` if it is a module or package of ours, else the longest prefix that is."""
    parts = name.split(".")
    while parts:
        base = PACKAGE.parent.joinpath(*parts)
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return ".".join(parts)
        parts.pop()
    return ""


def imports_of(path: Path) -> set[str]:
    """Our modules imported anywhere in ``path`` (function-level imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {resolve(name) for name in names if name.split(".")[0] == "analyzer"}
    return found - {""}


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    return {module_name(path): imports_of(path) for path in sorted(package.rglob("*.py"))}


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[1] == "games" else None


def layering_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for source, targets in graph.items():
        for target in targets:
            if target == "analyzer":
                target = "analyzer.__init__"
            same_part = part_of(source) == part_of(target)
            if not same_part and RANK[part_of(target)] >= RANK[part_of(source)]:
                bad.append(f"{source} imports {target}")
            elif same_part and game_of(target) and game_of(source) != game_of(target):
                bad.append(f"{source} imports another game's {target}")
    return bad


def is_engine(module: str) -> bool:
    """A game's engine or bot module (not its run code, not a module shared by all games)."""
    return game_of(module) is not None and module.split(".")[-1] not in RUN_ROOMS


def engine_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports of run code, experiments, reports or the CLI by a game's engine or bots."""
    bad = []
    for source, targets in graph.items():
        if not is_engine(source):
            continue
        for target in sorted(targets):
            upward = part_of(target) in ("experiments", "reports", "cli")
            run_code = game_of(target) is not None and not is_engine(target)
            if (upward or run_code) and (source, target) not in ENGINE_EXCEPTIONS:
                bad.append(f"{source} imports {target}")
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle found by a depth-first search (one path per back edge)."""
    found, state, path = [], {}, []

    def visit(module: str) -> None:
        state[module] = "open"
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in graph or target == module:
                continue
            if state.get(target) == "open":
                found.append(path[path.index(target):] + [target])
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


def test_every_module_has_a_known_layer():
    assert {part_of(module) for module in import_graph()} <= set(RANK)


def test_imports_point_down_the_layers():
    assert layering_violations(import_graph()) == []


def test_engines_and_bots_never_import_run_code_reports_or_the_cli():
    assert engine_violations(import_graph()) == []


def test_no_import_cycles():
    assert cycles(import_graph()) == []


@pytest.mark.parametrize("game", sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file()))
def test_every_game_has_the_same_rooms(game):
    missing = [room for room in GAME_ROOMS if not (PACKAGE / "games" / game / f"{room}.py").is_file()]
    assert missing == []


def test_the_checks_catch_a_bad_layout():
    """An upward import, a game importing another and a cycle are each reported."""
    graph = {"analyzer.cards.deck": {"analyzer.reports.store"},
             "analyzer.reports.store": {"analyzer.cards.deck"},
             "analyzer.games.seconds.kernels": {"analyzer.games.rikken.rules", "analyzer.games.trick"},
             "analyzer.games.rikken.rules": set(), "analyzer.games.trick": set()}
    assert layering_violations(graph) == ["analyzer.cards.deck imports analyzer.reports.store",
                                          "analyzer.games.seconds.kernels imports another game's "
                                          "analyzer.games.rikken.rules"]
    assert cycles(graph) == [["analyzer.cards.deck", "analyzer.reports.store", "analyzer.cards.deck"]]


def test_the_engine_check_catches_an_engine_importing_run_code_or_reports():
    graph = {"analyzer.games.seconds.kernels": {"analyzer.games.seconds.summary", "analyzer.games.seconds.rules"},
             "analyzer.games.seconds.policies": {"analyzer.reports.stats", "analyzer.cards.deck"},
             "analyzer.games.seconds.summary": {"analyzer.reports.stats", "analyzer.games.seconds.kernels"},
             "analyzer.games.trick": {"analyzer.cards.masks"}}
    assert engine_violations(graph) == ["analyzer.games.seconds.kernels imports analyzer.games.seconds.summary",
                                        "analyzer.games.seconds.policies imports analyzer.reports.stats"]
