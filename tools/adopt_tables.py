"""Record the metadata of tables in data/ that have none, after checking them; never recomputes.

A table is adopted when its bytes match its checksum, it reads as a table and its declared
check (`puzzlelab.registry.registered()`) accepts it; its metadata then records the declared
version and parameters (none for a table nobody declared: a benchmark's, or one read out of a
source document), the time of the last commit that changed it as `computed_at`, and no
`seconds` and no `machine` (unknown). Used when the metadata was introduced, and after merging a branch that
changed a committed table without its metadata:

    python tools/adopt_tables.py            # every table without (matching) metadata
    python tools/adopt_tables.py NAME ...   # only these
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from puzzlelab import cache, registry


def last_commit_time(path: Path) -> str | None:
    """When `path` was last committed (UTC, ISO 8601), or None when it never was."""
    out = subprocess.run(["git", "log", "-1", "--format=%cI", "--", str(path)], cwd=path.parent,
                         capture_output=True, text=True, check=False).stdout.strip()
    if not out:
        return None
    when = datetime.fromisoformat(out).astimezone(timezone.utc)
    return when.isoformat().replace("+00:00", "Z")


def needs_metadata(name: str) -> bool:
    """Has data/<name>.csv no metadata, or metadata that describes other bytes?"""
    try:
        cache.read_csv_checked(cache.data_path(name))
    except ValueError as err:
        return "metadata" in str(err)
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="tables to adopt (default: every one needing it)")
    args = parser.parse_args(argv)
    registry.registered()  # every declaration, so that each table is checked as declared
    names = args.names or [p.stem for p in sorted(cache.DATA.glob("*.csv"))]
    failed = 0
    for name in names:
        if not needs_metadata(name):
            continue
        try:
            path = cache.record_metadata(name, computed_at=last_commit_time(cache.data_path(name)))
        except ValueError as err:
            print(f"not adopted: {err}", file=sys.stderr)
            failed += 1
            continue
        print(f"adopted data/{name}.csv ({path.relative_to(cache.DATA)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
