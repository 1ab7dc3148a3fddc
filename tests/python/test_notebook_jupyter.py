"""A notebook opened the way a user opens one: scripts/notebook starts Debian's jupyter-notebook (on
127.0.0.1 only, serving a scratch copy of analysis/notebooks so autosave never writes outputs into the
repository), headless chromium opens prefetch.ipynb through it, runs every cell from the Cell menu, and
finds the headline table (the depth sweep) in the output. The test stops the server it started."""
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser import ROOT, chromium, screenshot


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    notebooks = tmp_path / "notebooks"
    shutil.copytree(ROOT / "analysis" / "notebooks", notebooks)
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_RUNTIME_DIR=str(tmp_path / "run"),
               JUPYTER_DATA_DIR=str(tmp_path / "data"), PYDEVD_DISABLE_FILE_VALIDATION="1",
               PERFLAB_NOTEBOOKS=str(notebooks))
    log = open(tmp_path / "jupyter.log", "w")
    process = subprocess.Popen([str(ROOT / "scripts" / "notebook"), f"--port={port}", "--port-retries=0",
                                f"--NotebookApp.token={token}"], env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(f"jupyter-notebook exited: {(tmp_path / 'jupyter.log').read_text()}")
                time.sleep(0.5)
        else:
            raise AssertionError(f"jupyter-notebook never answered: {(tmp_path / 'jupyter.log').read_text()}")
        yield url, token, port
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)  # the server and the kernels it started
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()


def outward_addresses() -> set:
    """This machine's addresses other than loopback: the host name's, and the one each IP version routes
    out through (a UDP socket's connect() picks it without sending anything)."""
    addresses = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)}
    for family, far in ((socket.AF_INET, "192.0.2.254"), (socket.AF_INET6, "2001:db8::254")):
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            try:
                s.connect((far, 9))
                addresses.add(s.getsockname()[0])
            except OSError:
                pass  # no route for this IP version
    return {a for a in addresses if not a.startswith(("127.", "fe80:")) and a not in ("::1", "0.0.0.0", "::")}


def test_server_listens_on_localhost_only(server):
    _, _, port = server
    addresses = outward_addresses()
    assert addresses, "no address but loopback to probe: the test would show nothing"
    for address in addresses:
        with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as s:
            s.settimeout(1)
            assert s.connect_ex((address, port)) != 0, f"the notebook server answers on {address}"


def test_prefetch_notebook_runs_in_jupyter(server):
    url, token, _ = server
    driver = chromium(1280, 1000)
    try:
        driver.get(f"{url}/notebooks/prefetch.ipynb?token={token}")
        wait = WebDriverWait(driver, 60)
        wait.until(lambda d: d.execute_script(
            "return window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && "
            "Jupyter.notebook.kernel.is_connected()"))
        driver.find_element(By.ID, "celllink").click()  # the Cell menu
        driver.find_element(By.ID, "run_all_cells").click()
        done = ("return Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code')"
                ".every(c => typeof c.input_prompt_number === 'number') && "
                "Jupyter.notebook.kernel_busy === false")
        WebDriverWait(driver, 600, poll_frequency=1).until(lambda d: d.execute_script(done))
        errors = driver.find_elements(By.CSS_SELECTOR, ".output_error")
        assert not errors, f"a cell failed: {errors[0].text[:2000]}"
        tables = [t.text for t in driver.find_elements(By.CSS_SELECTOR, ".output_html table.dataframe")]
        headline = [t for t in tables if "prefetch_depth" in t and "rpcs_mean" in t]
        assert headline, f"no depth-sweep table among the outputs: {tables}"
        rows = headline[0].splitlines()
        assert any(r.split()[1:2] == ["0"] and "704" in r for r in rows), headline[0]  # depth 0: one RPC per load
        table = [t for t in driver.find_elements(By.CSS_SELECTOR, ".output_html table.dataframe")
                 if "prefetch_depth" in t.text][0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", table)
        screenshot(driver, "notebook-prefetch", full_page=False)
    finally:
        driver.quit()
