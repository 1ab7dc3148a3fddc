"""The results site in a real browser: the site is rendered from the committed results/ (as `perflab
reproduce` renders it, with `perflab history`'s page from its committed CSV) into a scratch copy, and every page is opened from the file system in headless
chromium: no console error, every plot drawn with a non-zero size, every link resolving to a file (or an
anchor on its page), nothing loaded from the network, and a hover over a point showing its value."""
import pathlib
import re
import shutil
import subprocess
import urllib.parse

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from browser import ROOT, chromium, console_errors, screenshot


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    top = tmp_path_factory.mktemp("site")
    results = top / "results"
    shutil.copytree(ROOT / "results", results, ignore=shutil.ignore_patterns("*.html", "*.svg"))
    (top / "scenarios").symlink_to(ROOT / "scenarios")  # the pages link ../scenarios/<study>/...
    # `perflab history`'s page, from its committed CSV, before the site (whose index links it)
    subprocess.run(["/usr/bin/python3", str(ROOT / "analysis/python/history.py"), "page",
                    str(results / "history.csv"), str(results / "history.html")], check=True)
    subprocess.run(["/usr/bin/python3", str(ROOT / "analysis/python/render.py"), str(results),
                    str(ROOT / "scenarios")], check=True)
    return results


@pytest.fixture(scope="module")
def driver():
    d = chromium()
    yield d
    d.quit()


def pages(site):
    return sorted(site.glob("*.html"))


def test_site_has_an_index_and_a_page_per_study(site):
    names = {p.name for p in pages(site)}
    studies = {d.name for d in site.iterdir() if d.is_dir() and any(d.glob("*.summary.csv"))}
    assert "index.html" in names
    assert {f"{s}.html" for s in studies} <= names
    index = (site / "index.html").read_text()
    for study in studies:
        assert f'href="{study}.html"' in index
    assert 'href="history.html"' in index and "history.html" in names


def local_target(page_url: str, href: str):
    url = urllib.parse.urlparse(urllib.parse.urljoin(page_url, href))
    assert url.scheme == "file", f"{href}: the site links only to local files"
    return urllib.parse.unquote(url.path), url.fragment


def test_every_page_loads_draws_links_and_hovers(site, driver):
    for page in pages(site):
        driver.set_window_size(1280, 1000)
        driver.get(page.as_uri())
        assert driver.find_element(By.TAG_NAME, "h1").text, page.name
        errors = console_errors(driver)
        assert not errors, f"{page.name}: console errors {errors}"
        # nothing fetched from the network: every script, style and image is a file beside the page
        sources = driver.execute_script(
            "return [...document.querySelectorAll('script[src], link[href], img[src]')].map(e => e.src || e.href)")
        for source in sources:
            assert source.startswith(("file:", "data:")), f"{page.name}: loads {source}"
        ids = set(driver.execute_script("return [...document.querySelectorAll('[id]')].map(e => e.id)"))
        hrefs = driver.execute_script("return [...document.querySelectorAll('a')].map(a => a.href)")
        assert hrefs, f"{page.name}: no links"
        for href in hrefs:
            path, fragment = local_target(page.as_uri(), href)
            assert pathlib.Path(path).is_file(), f"{page.name}: link {href} resolves to nothing"
            if fragment and pathlib.Path(path) == page:
                assert fragment in ids, f"{page.name}: no #{fragment}"
        plots = driver.find_elements(By.CSS_SELECTOR, "svg.plot")
        for plot in plots:
            size = plot.size
            assert size["width"] > 100 and size["height"] > 50, f"{page.name}: a plot of size {size}"
            assert plot.find_elements(By.CSS_SELECTOR, ".point"), f"{page.name}: a plot with no points"
        if page.name != "index.html":
            assert plots, f"{page.name}: no plots"
            point = plots[0].find_elements(By.CSS_SELECTOR, ".point")[0]
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", point)
            ActionChains(driver).move_to_element(point).perform()
            tip = driver.find_element(By.ID, "tip")
            assert tip.is_displayed(), f"{page.name}: hovering a point shows nothing"
            says = r"[0-9a-f]{12} \d{4}-\d\d-\d\d: \S*\d" if page.name == "history.html" else r"mean \S*\d"
            assert re.search(says, tip.text), f"{page.name}: the hover says {tip.text!r}"
        screenshot(driver, f"site-{page.stem}")


def test_a_plot_shows_every_seed_and_the_seed_s_numbers(site):
    import pandas as pd
    runs = pd.read_csv(site / "prefetch" / "prefetch-jgit-clone.csv")
    published = pd.read_csv(ROOT / "scenarios" / "prefetch" / "reference.csv", comment="#")
    picture = (site / "prefetch" / "prefetch-jgit-clone.duration_s.svg").read_text()
    assert picture.count('class="seed"') == len(runs)
    assert picture.count('class="point seed-published"') == len(published)
    first = runs.iloc[0]
    assert f"seed {first['seed']}: duration_s = {first['duration_s']:.4g}" in picture


def test_no_page_scrolls_sideways_on_a_390_px_phone(site):
    # A phone as Chromium emulates one (a mobile viewport: a page without a viewport meta is laid out 980 px
    # wide and scrolls sideways once zoomed to read). A wide table may scroll inside its own box; the page
    # may not, and the index's headline figures are on screen, each under its column's name.
    phone = chromium(800, 844)
    try:
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        for page in pages(site):
            phone.get(page.as_uri())
            width, scroll = phone.execute_script(
                "return [document.documentElement.clientWidth, document.documentElement.scrollWidth]")
            assert width == 390, f"{page.name}: laid out {width} px wide on a 390 px phone"
            assert scroll <= width, f"{page.name}: {scroll - width} px to scroll sideways at 390 px"
        phone.get((site / "index.html").as_uri())
        rows = phone.find_elements(By.CSS_SELECTOR, "table.index tbody tr")
        assert rows
        for row in rows:
            cells = row.find_elements(By.TAG_NAME, "td")
            for cell, label in zip(cells[2:5], ("headline ratio: ", "perflab: ", "seed: ")):
                box = phone.execute_script("const r = arguments[0].getBoundingClientRect(); "
                                           "return [r.left, r.right];", cell)
                assert 0 <= box[0] and box[1] <= 390, f"{cells[0].text}: {label}at {box}, off screen"
                assert phone.execute_script(
                    "return getComputedStyle(arguments[0], '::before').content", cell) == f'"{label}"'
        screenshot(phone, "index-390px")
    finally:
        phone.quit()


def test_the_index_reads_at_1280_px(site, driver):
    # no horizontal scroll; each finding on a few lines, not a word a line; commit and date in sight and
    # the rest of the run record folded until asked for
    driver.set_window_size(1280, 1000)
    driver.get((site / "index.html").as_uri())
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the index is {overflow} px wider than a 1280 px window"
    rows = driver.find_elements(By.CSS_SELECTOR, "table.index tbody tr")
    assert rows
    for row in rows:
        cells = row.find_elements(By.TAG_NAME, "td")
        study, finding, ran = cells[0].text, cells[1], cells[-1]
        assert finding.size["width"] >= 300, f"{study}: the finding is squeezed to {finding.size['width']} px"
        assert re.search(r"\b[0-9a-f]{12}\b.*\d{4}-\d\d-\d\d", ran.text), f"{study}: ran says {ran.text!r}"
        record = ran.find_element(By.TAG_NAME, "details")
        assert record.get_attribute("open") is None and "compiler" not in ran.text, study
        record.find_element(By.TAG_NAME, "summary").click()
        assert "compiler" in ran.text, f"{study}: the folded record has no compiler"
    dispatcher = driver.find_element(By.CSS_SELECTOR, "table.index tbody tr:first-child").text
    assert re.search(r"dispatcher-adversarial: repetitions spread \d+%", dispatcher), dispatcher
    screenshot(driver, "site-index-1280")


def test_a_micro_run_says_whether_the_machine_was_quiet_or_loaded():
    from perflab_site.pages import machine_state
    record = {"host": "AMD EPYC 7B13, 2 cores, Linux 6.1", "probe_before_ms": "20.1", "probe_after_ms": "20.4"}
    quiet = machine_state(dict(record, load_before="0.40", load_after="1.20"))
    assert quiet == "machine quiet: load 0.4 → 1.2 on 2 cores, probe loop 20.1 → 20.4 ms"
    assert machine_state(dict(record, load_before="0.40", load_after="3.50")).startswith("machine loaded")
    assert machine_state({"host": record["host"]}) == "machine load not recorded"
def test_a_validated_study_shows_sim_against_real(site):
    """`perflab validate --out results/<study>`'s files appear on the study's page: a scatter of real against
    sim with the diagonal, one dot per point, and the error table with its verdict."""
    for csv in sorted(site.glob("*/*.validate.csv")):
        if not any(csv.parent.glob("*.summary.csv")):
            continue  # not a study's folder (results/validate-quick/, every study's --quick run): no page
        page = (site / f"{csv.parent.name}.html").read_text()
        name = csv.name[: -len(".validate.csv")]
        assert f"Sim against real: {name}" in page
        assert 'class="diagonal"' in page
        points = len(csv.read_text().strip().splitlines()) - 1
        section = page[page.index(f"Sim against real: {name}"):]
        assert section.count('<circle class="point"') >= points
        assert "Verdict:" in section
