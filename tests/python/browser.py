"""Debian's headless chromium driven by Debian's python3-selenium and chromium-driver, for the tests that
look at what a person sees: the results site and the notebooks in Jupyter. Screenshots go under the build
folder (PERFLAB_SCREENSHOTS, set by ctest) for a person to look at."""
import os
import pathlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = pathlib.Path(os.environ.get("PERFLAB_SCREENSHOTS", ROOT / "build" / "screenshots"))


def chromium(width=1280, height=1000):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def console_errors(driver) -> list:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def screenshot(driver, name: str, full_page=True) -> pathlib.Path:
    """Saves the whole page (the window stretched to the page's height, at most 12,000 px)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if full_page:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(driver.get_window_size()["width"], min(max(height, 600), 12000))
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path
