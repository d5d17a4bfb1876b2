"""Game polls on the production-like server (make bench): an unchanged and a changed poll as ratios
to the anonymous login page of the same run, and 240 tables of 4 players polling (load_polls.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_polls import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["--tables", "240", "--duration", "40", "--move-every", "60", "30"]))
