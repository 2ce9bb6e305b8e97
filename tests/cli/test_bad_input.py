"""Bad input on every command: one line ``error: ...`` on stderr, exit code 2, no traceback, nothing written.

Each case runs in-process through ``analyzer.cli.app.main`` in an empty working folder, with
``--out <tmp>/out`` added where the command writes a run; afterwards the folder must still be empty and
``out`` must not exist. Placeholders in the arguments name prepared paths outside the working folder.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import typer

import analyzer.cli
from analyzer import __version__
from analyzer.cards.constraints import build_constraints
from analyzer.cli.app import app, main
from analyzer.cli.catalog import EXPERIMENTS
from analyzer.cli.options import json_dumps
from analyzer.cli.seconds import default_policies
from analyzer.reports.store import atomic_write

FULL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"  # N spades, E hearts, ...
ENDING = "N:A... K... Q... J..."
SCHNAPSEN = "hand0=HJ SA SK SQ CJ; hand1=DA DT DK DQ DJ; stock=CQ CK CT CA HQ HK HT ST SJ HA; leader=0"
# Commands whose --out names what they write (a run folder, or report's file).
WRITERS = {("rikken", "bids"), ("rikken", "play"), ("rikken", "advise"), ("schnapsen", "match"), ("schnapsen", "closing"),
           ("schnapsen", "advise"),
           ("seconds", "play"), ("seconds", "variants"), ("runs", "demo"), ("report",)}

CASES = [
    # top level
    (["bogus"], "No such command"),
    (["--bogus"], "No such option"),
    (["rikken", "bogus"], "No such command"),
    # rikken deal: counts, seeds, cards, constraints
    (["rikken", "deal", "-n", "0"], "--count"),
    (["rikken", "deal", "-n", "-3"], "--count"),
    (["rikken", "deal", "-n", "x"], "--count"),
    (["rikken", "deal", "-n", "1000000000000"], "less than or equal to 1000000"),
    (["rikken", "deal", "--seed", "-1"], "--seed"),
    (["rikken", "deal", "--seed", "1.5"], "--seed"),
    (["rikken", "deal", "--seed", "abc"], "--seed"),
    (["rikken", "deal", "--hand", "N=AKQ"], "four suits"),
    (["rikken", "deal", "--hand", "N=AKQ2.T93..J8765"], "13 cards, not 12"),
    (["rikken", "deal", "--hand", "X=AKQ2.T93.K4.J876"], "unknown seat 'X'"),
    (["rikken", "deal", "--hand", "N=AKQ2.T93.K4.J8Z6"], "unknown rank 'Z'"),
    (["rikken", "deal", "--hand", "N=AAQ2.T93.K4.J876"], "SA appears twice"),
    (["rikken", "deal", "--hand", "N=AKQ2.T93.K4.J876", "--hand", "E=AKQ2.T93.K4.J876"], "fixed for both N and E"),
    (["rikken", "deal", "--hand", "N=AKQ2.T93.K4.J876", "--cards", "W=SA"], "SA is fixed for both N and W"),
    (["rikken", "deal", "--cards", "E=SZ"], "bad card 'SZ'"),
    (["rikken", "deal", "--cards", "E=XA"], "unknown suit"),
    (["rikken", "deal", "--cards", "E=SA,SA"], "SA is listed twice"),
    (["rikken", "deal", "--cards", "N=SA", "--cards", "E=SA"], "SA is fixed for both N and E"),
    (["rikken", "deal", "--cards", "N=SA", "--cards", "N=SA"], "repeats SA"),
    (["rikken", "deal", "--cards", "SA"], "SEAT=VALUE"),
    (["rikken", "deal", "--cards", "Q=SA"], "unknown seat 'Q'"),
    (["rikken", "deal", "--hcp", "N=38-40"], "HCP are 0..37 per hand"),
    (["rikken", "deal", "--hcp", "N=15-12"], "15 is above 12"),
    (["rikken", "deal", "--hcp", "N=abc"], "LOW-HIGH"),
    (["rikken", "deal", "--hcp", "N=1-2-3"], "LOW-HIGH"),
    (["rikken", "deal", "--hcp", "N=-1-5"], "LOW-HIGH"),
    (["rikken", "deal", "--hcp", "N"], "SEAT=VALUE"),
    (["rikken", "deal", "--aces", "W=5"], "0..4 aces"),
    (["rikken", "deal", "--length", "N:S=14"], "0..13 cards"),
    (["rikken", "deal", "--length", "N=5"], "SEAT:SUIT"),
    (["rikken", "deal", "--length", "N:X=5"], "unknown suit 'X'"),
    (["rikken", "deal", "--length", "N:S=13", "--length", "E:S=1"], "too restrictive"),
    (["rikken", "deal", "--hcp", "N=37", "--hcp", "E=37"], "too restrictive"),
    # rikken bids
    (["rikken", "bids"], "Missing option '--deals'"),
    (["rikken", "bids", "--deals", "0"], "--deals"),
    (["rikken", "bids", "--deals", "-5"], "--deals"),
    (["rikken", "bids", "--deals", "1000000000000"], "less than or equal to 1000000000"),
    (["rikken", "bids", "--deals", "10", "--contracts", "bogus"], "unknown contract 'bogus'"),
    (["rikken", "bids", "--deals", "10", "--policy", "bogus"], "--policy"),
    (["rikken", "bids", "--deals", "10", "--dealing", "bogus"], "--dealing"),
    (["rikken", "bids", "--deals", "10", "--policy", "dd", "--dealing", "packets"], "--dealing packets"),
    (["rikken", "bids", "--deals", "2", "--policy", "dd", "--dd-budget", "lots"], "--dd-budget"),
    (["rikken", "bids", "--deals", "2", "--policy", "dd", "--dd-budget", "1.5"], "--dd-budget"),
    (["rikken", "bids", "--deals", "2", "--policy", "dd", "--dd-budget", "-1"], "--dd-budget"),
    (["rikken", "bids", "--deals", "2", "--policy", "dd", "--dd-budget", "100000000001"], "--dd-budget"),
    (["rikken", "bids", "--deals", "2", "--dd-budget", "1000"], "--dd-budget needs --policy dd"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--policy", "dd", "--dd-budget", "-5"], "--dd-budget"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--dd-budget", "5"], "--dd-budget needs --policy dd"),
    (["rikken", "bids", "--deals", "10", "--chunk-size", "0"], "--chunk-size"),
    (["rikken", "bids", "--deals", "10", "--chunk-size", "10000000"], "less than or equal to 1000000"),
    (["rikken", "bids", "--deals", "1000000000", "--chunk-size", "1"], "raise --chunk-size"),
    (["rikken", "bids", "--deals", "10", "--workers", "0"], "--workers"),
    (["rikken", "bids", "--deals", "10", "--workers", "1000"], "less than or equal to 256"),
    (["rikken", "bids", "--deals", "10", "--scheduler", "bogus"], "unknown scheduler 'bogus'"),
    (["rikken", "bids", "--deals", "10", "--scheduler", "local:0"], "takes 1 to 256 workers"),
    (["rikken", "bids", "--deals", "10", "--scheduler", "tcp://host"], "unknown scheduler"),
    (["rikken", "bids", "--deals", "10", "--out", ""], "--out is empty"),
    (["rikken", "bids", "--deals", "10", "--seed", "abc"], "--seed"),
    (["rikken", "bids", "--deals", "10", "--hcp", "N=38-40"], "HCP are 0..37 per hand"),
    (["rikken", "bids", "--deals", "10", "--seat", "X"], "unknown seat 'X'"),
    (["rikken", "bids", "--deals", "10", "--dealing", "packets", "--hcp", "N=10"], "need --dealing random"),
    (["rikken", "play", "--rounds", "10", "--cards", "N=SA", "--cards", "E=SA"], "SA is fixed for both N and E"),
    # rikken play
    (["rikken", "play", "--rounds", "0"], "--rounds"),
    (["rikken", "play", "--rounds", "1000000000000"], "less than or equal to 1000000000"),
    (["rikken", "play", "--rounds", "10", "--policy", "best"], "--policy"),
    (["rikken", "play", "--rounds", "1000000000", "--policy", "dd"], "raise --chunk-size"),
    (["rikken", "play", "--rounds", "1000000000", "--policy", "expert"], "raise --chunk-size"),
    (["rikken", "play", "--rounds", "10", "--seat-policies", "expert,heuristic,expert"], "--seat-policies needs four"),
    (["rikken", "play", "--rounds", "10", "--chunk-size", "-1"], "--chunk-size"),
    (["rikken", "play", "--rounds", "10", "--out", " "], "--out is empty"),
    (["rikken", "play", "--rounds", "10", "--rounds-per-game", "0"], "--rounds-per-game"),
    (["rikken", "play", "--rounds", "10", "--rounds-per-game", "10000000"], "less than or equal to 1000000"),
    (["rikken", "play", "--rounds", "10", "--rounds-per-game", "3"], "not a whole number of games"),
    # rikken advise: the hand, seats, constraints on the other seats
    (["rikken", "advise"], "Missing argument"),
    (["rikken", "advise", "AKQ.A2.K73.95"], "10 cards, a Rikken hand has 13"),
    (["rikken", "advise", "AKQT86.A2.K73.95.2"], "four suits"),
    (["rikken", "advise", "AKQT86.A2.K73.9X"], "unknown rank 'X'"),
    (["rikken", "advise", "AKQT86.A2.K73.99"], "appears twice"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--seat", "X"], "unknown seat"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--dealer", "Q"], "unknown seat"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--deals", "0"], "--deals"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--contracts", "troela"], "Troela needs three aces"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--contracts", "rik,bogus"], "unknown contract"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--cards", "N=SJ"], "--cards names N, your seat"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--seat", "E", "--hcp", "E=5-8"], "--hcp names E, your seat"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--cards", "E=SA"], "SA"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--aces", "E=3-4"], "aces"),
    (["rikken", "advise", "AKQT86.A2.K73.95", "--policy", "bogus"], "--policy"),
    # rikken replay: a run's round (--seed, --index) or a PBN deal, not both, not neither
    (["rikken", "replay"], "give --seed S --index I"),
    (["rikken", "replay", "--seed", "1"], "give --seed S --index I"),
    (["rikken", "replay", "--index", "3"], "--index needs --seed"),
    (["rikken", "replay", FULL, "--seed", "1", "--index", "0"], "not both"),
    (["rikken", "replay", "--seed", "1", "--index", "-1"], "--index"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--bidding", "clever"], "unknown bidding"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--bidding-margin", "0.5"], "--bidding-margin"),
    (["rikken", "replay", "--seed", "1", "--index", "1000000000"], "--index 1,000,000,000 is out of range"),
    (["rikken", "replay", "--seed", "1", "--index", "200000", "--policy", "dd"], "out of range"),
    (["rikken", "replay", "--seed", "-1", "--index", "0"], "--seed"),
    (["rikken", "replay", "bogus"], "N:hand hand hand hand"),
    (["rikken", "replay", "N:AKQ"], "expected 4 hands"),
    (["rikken", "replay", ENDING], "every hand needs 13 cards"),
    (["rikken", "replay", "N:AQ... AK... Q... J..."], "SA is held twice, by N and by E"),
    (["rikken", "replay", FULL, "--dealer", "X"], "unknown seat 'X'"),
    (["rikken", "replay", FULL, "--chunk-size", "5"], "go with --seed S --index I"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--dealer", "E"], "--dealer is for a PBN deal"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--policy", "best"], "--policy"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--seat-policies", "dd,dd"], "--seat-policies needs four"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--seat-policies", "dd,dd,dd,dd", "--policy", "dd"],
     "drop --policy"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--chunk-size", "0"], "--chunk-size"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--hcp", "N=38-40"], "HCP are 0..37 per hand"),
    (["rikken", "replay", "--seed", "1", "--index", "0", "--dealing", "packets", "--aces", "N=2"],
     "need --dealing random"),
    # rikken solve: deals
    (["rikken", "solve"], "Missing argument"),
    (["rikken", "solve", "bogus"], "N:hand hand hand hand"),
    (["rikken", "solve", "N:AKQ"], "expected 4 hands"),
    (["rikken", "solve", "X:... ... ... ..."], "unknown seat 'X'"),
    (["rikken", "solve", "N:... ... ... ..."], "hold no cards"),
    (["rikken", "solve", "N:AK... Q... J... T..."], "equal hands"),
    (["rikken", "solve", "N:AQ... AK... Q... J..."], "SA is held twice, by N and by E"),
    (["rikken", "solve", "N:AV... K... Q... J..."], "unknown rank 'V'"),
    # rikken solve: questions
    ([  "rikken", "solve", ENDING, "--trump", "X", "--team", "NS"], "unknown trump 'X'"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NSEW"], "one to three seats"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NN"], "named twice"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NX"], "unknown seat 'X'"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NS", "--goal", "ge:14"], "K in 0..13"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NS", "--goal", "bogus"], "bad goal"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NS", "--called", "ZZ"], "bad card 'ZZ'"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NS", "--blind"], "blind call needs a called card"),
    (["rikken", "solve", ENDING, "--trump", "S"], "both --trump and --team"),
    (["rikken", "solve", ENDING, "--goal", "ge:1"], "need a single question"),
    (["rikken", "solve", ENDING, "--dd-budget", "lots"], "--dd-budget"),
    (["rikken", "solve", ENDING, "--dd-budget", "-1"], "--dd-budget"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NS", "--dd-budget", "100000000001"], "--dd-budget"),
    (["rikken", "solve", ENDING, "--dealer", "X"], "unknown seat 'X'"),
    (["rikken", "solve", ENDING, "--leader", "Q", "--trump", "S", "--team", "NS"], "unknown seat 'Q'"),
    (["rikken", "solve", FULL, "--trump", "S", "--team", "NS", "--called", "SA"], "not be of the trump suit"),
    (["rikken", "solve", ENDING, "--trump", "S", "--team", "NS", "--called", "SA"], "not be of the trump suit"),
    (["rikken", "solve", FULL, "--trump", "S", "--team", "NE", "--called", "HA"], "callable: CA (blind)"),
    (["rikken", "solve", FULL, "--trump", "N", "--team", "NE", "--called", "HA"], "at no trump"),
    (["rikken", "solve", FULL, "--trump", "S", "--team", "NE", "--called", "HQ"], "calls an ace"),
    (["rikken", "solve", FULL, "--trump", "S", "--team", "E", "--called", "HA"], "never calls his own card"),
    (["rikken", "solve", FULL, "--trump", "S", "--team", "NS", "--called", "HA"], "E holds it"),
    (["rikken", "solve", FULL, "--trump", "S", "--team", "NES", "--called", "HA"], "two seats"),
    # schnapsen match and closing
    (["schnapsen", "match", "--bots", "heuristic", "--matches", "2"], "--bots takes two bots, e.g. --bots heuristic pimc"),
    (["schnapsen", "match", "--bots", "heuristic"], "--bots"),
    (["schnapsen", "match", "--bots", "heuristic", "bogus"], "unknown Schnapsen bot 'bogus'"),
    (["schnapsen", "match", "--bots", "heuristic", "pimc:0"], "sample count must be 1..10000"),
    (["schnapsen", "match", "--bots", "heuristic", "pimc:x"], "write pimc:N"),
    (["schnapsen", "match", "--bots", "heuristic:strong", "pimc"], "heuristic takes no ':strong'"),
    (["schnapsen", "match", "--bots", "random:5", "pimc"], "only pimc:N, pimc_plus:N, rollout:N, hybrid:N, hybrid_infer:N, ismcts:N and ismcts_hybrid:N"),
    (["schnapsen", "match", "--matches", "0"], "--matches"),
    (["schnapsen", "match", "--matches", "1000000000000"], "less than or equal to 1000000000"),
    (["schnapsen", "match", "--matches", "100000000", "--chunk-size", "1"], "raise --chunk-size"),
    (["schnapsen", "match", "--samples", "0"], "--samples"),
    (["schnapsen", "match", "--samples", "100000"], "less than or equal to 10000"),
    (["schnapsen", "match", "--chunk-size", "0"], "--chunk-size"),
    (["schnapsen", "match", "--scheduler", "local:x"], "unknown scheduler"),
    (["schnapsen", "closing", "--deals", "0"], "--deals"),
    (["schnapsen", "closing", "--bot", "bogus"], "unknown Schnapsen bot"),
    (["schnapsen", "closing", "--bot", "pimc:abc"], "write pimc:N"),
    (["schnapsen", "closing", "--out", ""], "--out is empty"),
    # schnapsen advise: state strings
    (["schnapsen", "advise"], "Missing argument"),
    (["schnapsen", "advise", ""], "state needs hand0"),
    (["schnapsen", "advise", "bogus"], "without '='"),
    (["schnapsen", "advise", "foo=1;hand0=HA;hand1=HK"], "unknown state field 'foo'"),
    (["schnapsen", "advise", "hand0=HA HA;hand1=HK;trump=S"], "appears twice"),
    (["schnapsen", "advise", "hand0=HA;hand1=HK"], "trump=SUIT is needed"),
    (["schnapsen", "advise", SCHNAPSEN.replace("leader=0", "leader=2")], "leader must be 0 or 1"),
    (["schnapsen", "advise", SCHNAPSEN + "; points=x,y"], "must be an integer"),
    (["schnapsen", "advise", SCHNAPSEN + "; points=500,0"], "impossible points"),
    (["schnapsen", "advise", SCHNAPSEN + "; trump=X"], "trump must be one of"),
    (["schnapsen", "advise", SCHNAPSEN + "; closed=0,12"], "closed= takes"),
    (["schnapsen", "advise", SCHNAPSEN.replace(" HA;", ";")], "even number of cards"),
    (["schnapsen", "advise", SCHNAPSEN.replace("HA;", "C9;")], "not a Schnapsen card: 'C9'"),
    (["schnapsen", "advise", "hand0=;hand1=;trump=S"], "the deal is over"),
    (["schnapsen", "advise", "hand0=?;hand1=?;trump=S"], "must name his hand"),
    (["schnapsen", "advise", SCHNAPSEN, "--bot", "bogus"], "unknown Schnapsen bot"),
    (["schnapsen", "advise", SCHNAPSEN, "--samples", "0"], "--samples"),
    (["schnapsen", "advise", SCHNAPSEN, "--seed", "-2"], "--seed"),
    # seconds play and variants
    (["seconds", "play", "--players", "1"], "with 2 to 8 players, got 1"),
    (["seconds", "play", "--players", "9"], "with 2 to 8 players, got 9"),
    (["seconds", "play", "--players", "abc"], "--players"),
    (["seconds", "play", "--policies", "bogus"], "unknown policy 'bogus'"),
    (["seconds", "play", "--policies", "heuristic,random"], "one per seat (4), got 2"),
    (["seconds", "play", "--variant", "bogus"], "unknown trump variant"),
    (["seconds", "play", "--minimum", "bogus"], "unknown minimum variant"),
    (["seconds", "play", "--target", "0"], "--target"),
    (["seconds", "play", "--target", "1000000000"], "less than or equal to 100000"),
    (["seconds", "play", "--games", "0"], "--games"),
    (["seconds", "play", "--games", "1000000000000"], "--games"),
    (["seconds", "play", "--games", "100000000"], "raise --chunk-size"),
    (["seconds", "play", "--param", "bogus=1"], "unknown policy parameter 'bogus'"),
    (["seconds", "play", "--param", "p_top=x"], "write NAME=NUMBER"),
    (["seconds", "play", "--param", "p_top"], "write NAME=NUMBER"),
    (["seconds", "play", "--param", "p_top=2"], "is a probability"),
    (["seconds", "play", "--param", "top_penalty=nan"], "finite number"),
    (["seconds", "play", "--param", "top_penalty=inf"], "finite number"),
    (["seconds", "play", "--param", "n_samples=0"], "n_samples must be a whole number 1..10,000"),
    (["seconds", "play", "--param", "n_samples=1e9"], "n_samples must be a whole number 1..10,000"),
    (["seconds", "play", "--param", "n_samples=1.5"], "n_samples must be a whole number 1..10,000, got 1.5"),
    (["seconds", "play", "--param", "max_tries=2.5"], "max_tries must be a whole number 0..10,000, got 2.5"),
    (["seconds", "play", "--param", "suit_floor=0.5"], "suit_floor is 0 or 1"),
    (["seconds", "play", "--chunk-size", "0"], "--chunk-size"),
    (["seconds", "play", "--scheduler", "tcp://x"], "unknown scheduler"),
    (["seconds", "play", "--out", ""], "--out is empty"),
    (["seconds", "variants", "--players", "1"], "with 2 to 8 players"),
    (["seconds", "variants", "--policy", "bogus"], "unknown policy"),
    (["seconds", "variants", "--policy", "heuristic,random"], "one per seat (1), got 2"),
    (["seconds", "variants", "--deals", "0"], "--deals"),
    (["seconds", "variants", "--deals", "1000000000000"], "--deals"),
    # runs, resume, report, query
    (["runs", "--root", "{missing}"], "{missing}: no such folder"),
    (["runs", "--root", "{file}"], "is not a directory"),
    (["runs", "show"], "Missing argument"),
    (["runs", "show", "{missing}"], "no such folder"),
    (["runs", "show", "{file}"], "is not a directory"),
    (["runs", "show", "{empty}"], "no manifest.json"),
    (["runs", "show", "{corrupt}"], "is corrupt"),
    (["runs", "demo", "--deals", "0"], "--deals"),
    (["runs", "demo", "--threshold", "99"], "--threshold"),
    (["runs", "demo", "--rounds", "0"], "--rounds"),
    (["runs", "demo", "--deals", "1000000000", "--chunk-size", "1"], "raise --chunk-size"),
    (["resume"], "Missing argument"),
    (["resume", "{missing}"], "no such folder"),
    (["resume", "{file}"], "is not a directory"),
    (["resume", "{empty}"], "no manifest.json"),
    (["resume", "{corrupt}"], "is corrupt"),
    (["resume", "{no_argv}"], "records no command line"),
    (["report"], "Missing argument"),
    (["report", "{missing}"], "no such folder"),
    (["report", "{file}"], "is not a directory"),
    (["report", "{empty}"], "no manifest.json"),
    (["report", "{no_argv}", "--format", "bogus"], "--format"),
    # issue 38: bounds on every count, no empty values, no run mixed into unrelated files
    (["runs", "demo", "--scheduler", "local:1000000"], "takes 1 to 256 workers"),
    (["runs", "demo", "--scheduler", ""], "--scheduler is empty"),
    (["runs", "demo", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
    (["rikken", "bids", "--deals", "4", "--cards", "E="], "names no cards"),
    (["runs", "demo", "--out", "{unrelated}"], "holds files but no run"),
    (["rikken", "bids", "--deals", "4", "--out", "{long}"], "File name too long"),
    (["runs", "demo", "--deals", "4", "--out", "{long}"], "File name too long"),
    (["resume", "{crafted}"], "not a batch experiment"),
]
QUERY_CASES = [
    (["query", "{missing}"], "no such folder"),
    (["query", "{empty}"], "no manifest.json"),
    (["query", "{no_argv}"], "keeps no rows to query"),
]


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    """Paths the placeholders stand for: missing, a plain file, an empty folder, broken run folders."""
    root = tmp_path_factory.mktemp("places")
    (root / "file").write_text("not a run\n")
    (root / "empty").mkdir()
    (root / "corrupt").mkdir()
    (root / "corrupt" / "manifest.json").write_text("{not json")
    (root / "no_argv").mkdir()
    (root / "no_argv" / "manifest.json").write_text(json.dumps({"experiment": "made-up", "status": "interrupted"}))
    (root / "unrelated").mkdir()
    (root / "unrelated" / "notes.txt").write_text("mine\n")
    (root / "crafted").mkdir()
    (root / "crafted" / "manifest.json").write_text(json.dumps({"status": "interrupted", "argv": [
        "analyzer", "rikken", "strategy", "fit", str(root / "crafted"), "--out", str(root / "written.zip")]}))
    names = {"missing": root / "missing", "long": root / ("x" * 300),
             **{name: root / name for name in ("file", "empty", "corrupt", "no_argv", "unrelated", "crafted")}}
    return {key: str(path) for key, path in names.items()}


def _tree(folder) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def _run(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    captured = capsys.readouterr()
    return stop.value.code, captured.out, captured.err


HAS_QUERY = any(command.name == "query" for command in app.registered_commands)


@pytest.mark.parametrize("args, message", CASES + (QUERY_CASES if HAS_QUERY else []),
                         ids=lambda value: " ".join(value)[:80] if isinstance(value, list) else None)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(args, message, places, tmp_path, monkeypatch, capsys):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    out = tmp_path / "out"
    argv = [arg.format(**places) for arg in args]
    if (tuple(args[:2]) in WRITERS or tuple(args[:1]) in WRITERS) and "--out" not in argv:
        argv += ["--out", str(out)]
    places_before = _tree(Path(places["file"]).parent)
    code, _, err = _run(argv, capsys)
    lines = err.splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert message.format(**places) in lines[0]
    assert "Traceback" not in err
    assert not out.exists()
    assert _tree(cwd) == []
    assert _tree(Path(places["file"]).parent) == places_before


def test_a_refused_scheduler_leaves_no_results_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(["runs", "demo", "--scheduler", "tcp://127.0.0.1:9"], capsys)
    assert code == 2 and err.count("\n") == 1 and list(tmp_path.iterdir()) == []


def test_a_folder_made_read_only_mid_run_ends_in_one_line_and_a_failed_manifest(tmp_path, monkeypatch, capsys):
    import analyzer.reports.store as store

    replace = os.replace

    def read_only_after_two_chunks(source, target):
        if Path(target).name == "chunk-000002.npz":
            raise PermissionError(13, "Permission denied", str(source))
        replace(source, target)

    monkeypatch.setattr(store.os, "replace", read_only_after_two_chunks)
    out = tmp_path / "run"
    code, _, err = _run(["runs", "demo", "--deals", "5000", "--chunk-size", "1000", "--workers", "1",
                         "--out", str(out)], capsys)
    assert code == 2 and err.splitlines()[-1].startswith("error: ") and "Permission denied" in err
    assert "Traceback" not in err and sum(line.startswith("error:") for line in err.splitlines()) == 1
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "failed" and manifest["stages"]["deals"]["chunks_done"] == 2


def test_a_full_disk_when_a_run_stops_leaves_its_manifest_readable(tmp_path, monkeypatch, capsys):
    import builtins

    import analyzer.reports.store as store

    replace, real_open = os.replace, builtins.open

    class FullDisk:
        """A file handle on a full disk: the file's own bytes can be overwritten, growing it fails (ENOSPC)."""

        def __init__(self, handle):
            self.handle, self.size = handle, os.fstat(handle.fileno()).st_size

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def truncate(self, *args):
            return self.handle.truncate(*args)

        def write(self, data):
            if self.handle.tell() + len(data) > self.size:
                raise OSError(28, "No space left on device")
            return self.handle.write(data)

    full = []

    def full_after_two_chunks(source, target):
        if full or Path(target).name == "chunk-000002.npz":
            full.append(target)
            monkeypatch.setattr(builtins, "open", lambda path, mode="r", *a, **k: FullDisk(real_open(path, mode, *a, **k))
                                if str(path).endswith("manifest.json") and "+" in mode else real_open(path, mode, *a, **k))
            raise OSError(28, "No space left on device", str(source))
        replace(source, target)

    monkeypatch.setattr(store.os, "replace", full_after_two_chunks)
    out = tmp_path / "run"
    code, _, err = _run(["runs", "demo", "--deals", "5000", "--chunk-size", "1000", "--workers", "1",
                         "--out", str(out)], capsys)
    monkeypatch.setattr(builtins, "open", real_open)
    assert code == 2 and "No space left on device" in err and "Traceback" not in err
    manifest = json.loads((out / "manifest.json").read_text())  # still whole: its command line survives
    assert manifest["argv"] and manifest["stages"]["deals"]["chunks_total"] == 5 and manifest["status"] == "failed"
    assert Path(full[-1]).name == "manifest.json"  # its usual write failed too: the fallback wrote it


def test_cases_are_distinct_and_many():
    argvs = [tuple(args) for args, _ in CASES]
    assert len(set(argvs)) == len(argvs) >= 60


def test_no_traceback_reaches_a_real_terminal(tmp_path):
    result = subprocess.run([sys.executable, "-m", "analyzer", "rikken", "deal", "-n", "1000000000000"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [result.stderr.strip()] and result.stderr.startswith("error: ")
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_missing_root_is_named(capsys):
    code, _, err = _run(["runs", "--root", "/nonexistent"], capsys)
    assert (code, err) == (2, "error: /nonexistent: no such folder\n")


def test_version(capsys):
    code, out, err = _run(["--version"], capsys)
    assert (code, out, err) == (0, f"analyzer {__version__}\n", "")


def _strict_json(text: str):
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_version_loads_no_game_numba_or_pandas():
    """``analyzer --version`` (and the root's help) answer without importing a command's module."""
    code = ("import sys\nfrom analyzer.cli.app import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'pandas', 'numpy')"
            " or m.startswith(('analyzer.games', 'analyzer.cli.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [f"analyzer {__version__}", "['analyzer.cli.app']"]


def test_deal_help_example_is_a_valid_hand():
    deal = typer.main.get_command(app).get_command(None, "rikken").commands["deal"]
    [hand] = [param for param in deal.params if param.name == "hand"]
    example = hand.help.split(": ", 1)[1].rstrip(".")
    build_constraints([example], [], [], [], [])


def _play(capsys, out, *args):
    code, text, err = _run(["seconds", "play", "--games", "1", "--workers", "1", "--json", "--out", str(out),
                            *args], capsys)
    assert code == 0, err
    return _strict_json(text)


def test_seconds_play_default_policies_fit_every_table(tmp_path, capsys):
    assert [default_policies(n).split(",") for n in (2, 3)] == [["heuristic", "random"],
                                                                ["heuristic", "random", "heuristic"]]
    assert all(len(default_policies(n).split(",")) == n for n in range(2, 9))
    payload = _play(capsys, tmp_path / "run", "--players", "3")
    assert payload["policies"] == ["heuristic", "random", "heuristic"]
    assert payload["run_dir"] == str(tmp_path / "run") and "out" not in payload


def test_json_output_has_null_for_undefined_values(tmp_path, capsys):
    # One policy at every seat (no rotations), one game: a seat's score interval rests on a single game,
    # undefined (NaN) in the table, and must be null in the JSON.
    payload = _play(capsys, tmp_path / "run", "--players", "3", "--policies", "heuristic")
    assert [row["score_lo"] for row in payload["by_seat"]] == [None, None, None]


def test_json_helper_writes_null_for_nan_and_infinities():
    text = json_dumps({"a": float("nan"), "b": [np.float64("inf"), -float("inf")], "c": np.int64(3), "d": 0.5})
    assert _strict_json(text) == {"a": None, "b": [None, None], "c": 3, "d": 0.5}


def test_every_json_summary_names_the_run_folder_run_dir():
    for module in Path(analyzer.cli.__file__).parent.glob("*.py"):
        assert '"out":' not in module.read_text(), module.name


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_result_files_follow_the_umask(umask, mode, tmp_path):
    previous = os.umask(umask)
    try:
        atomic_write(tmp_path / "table.csv", lambda path: path.write_text("a\n1\n"))
    finally:
        os.umask(previous)
    assert (tmp_path / "table.csv").stat().st_mode & 0o777 == mode
    assert [path.name for path in tmp_path.iterdir()] == ["table.csv"]


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_every_experiment_takes_its_count_as_n(name):
    # Every experiment the catalog knows, by its command words ("rikken-bids" -> rikken bids).
    command = typer.main.get_command(app)
    for word in name.replace("-", " ", 1).split():
        command = command.get_command(None, word)
    assert any("-n" in param.opts for param in command.params), name
