"""Executes one notebook headless (nbclient, Debian's python3 kernel) in a scratch copy; exit 1 with the
failing cell's error if any cell raises. The stored notebook is never written: it stays without outputs.

    /usr/bin/python3 tests/python/run_notebook.py analysis/notebooks/prefetch.ipynb
"""

import os
import sys
import tempfile

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main(path: str) -> int:
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # the kernel's debugger notice on stderr
    notebook = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as scratch:
        client = NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": scratch}})
        try:
            client.execute()
        except CellExecutionError as error:
            print(f"{path}: a cell failed:\n{error}", file=sys.stderr)
            return 1
    print(f"{path}: {len(notebook.cells)} cells ran")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
