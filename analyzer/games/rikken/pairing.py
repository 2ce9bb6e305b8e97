"""Whether two Rikken runs hold the same deals, so that ``analyzer rikken compare`` can pair them: runs of
``rikken bids`` (or of ``rikken play``) with the same seed, chunk size, count, random dealing and deal
parameters, whatever their card play."""

import shlex
from pathlib import Path

from analyzer.errors import InputError
from analyzer.reports.manifest import read_manifest

# Rows folder of each experiment, also the name of its manifest's count.
ROWS = {"rikken-bids": "hands", "rikken-play": "rounds"}
# Parameters two paired runs may differ in: the card play, and what is evaluated or summarised on the deals.
FREE_PARAMS = {"policy", "declarer_policy", "defender_policy", "seat_policies", "worlds", "dd_budget", "contracts",
               "rounds_per_game"}


def check_pairable(root_a: Path, root_b: Path) -> str:
    """The runs' experiment, after checking that they hold the same deals by construction.

    Raises
    ------
    InputError
        Naming what keeps them from holding the same deals.
    """
    manifests = [read_manifest(root_a), read_manifest(root_b)]
    experiment = manifests[0].get("experiment")
    if experiment not in ROWS or manifests[1].get("experiment") != experiment:
        raise InputError("compare needs two rikken-bids runs or two rikken-play runs, got "
                         f"{manifests[0].get('experiment')} and {manifests[1].get('experiment')}")
    for root, manifest in zip((root_a, root_b), manifests):
        if manifest.get("status") != "complete":
            raise InputError(f"{root} is {manifest.get('status')}, not complete: finish it with analyzer resume")
        if manifest["params"]["dealing"] != "random":
            raise InputError(f"{root} deals in packets, which depend on the card play: pair runs with --dealing random")
    params = [manifest["params"] for manifest in manifests]
    checked = [(key, manifests) for key in ("seed", "chunk_size", ROWS[experiment])]
    checked += [(key, params) for key in sorted((set(params[0]) | set(params[1])) - FREE_PARAMS)]
    for key, (a, b) in checked:
        if a.get(key) != b.get(key):
            raise InputError(f"the runs differ in {key} ({a.get(key)} and {b.get(key)}), so they do not hold the "
                             "same deals and hands")
    return experiment


def shared_deals_note(run_a, run_b) -> str | None:
    """For ``analyzer report A B``: a sentence when the two runs hold the same deals, pointing to
    ``rikken compare``, which pairs them deal by deal; None when they do not."""
    try:
        check_pairable(Path(run_a), Path(run_b))
    except (InputError, KeyError, TypeError):
        return None
    return (f"The runs hold the same deals (same seed, size and dealing), so the intervals here, which treat them "
            f"as independent samples, are wider than they need be: `analyzer rikken compare {shlex.quote(str(run_a))} "
            f"{shlex.quote(str(run_b))}` "
            "pairs them deal by deal.")
