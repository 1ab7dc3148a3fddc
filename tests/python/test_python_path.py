"""`import perflab` from any directory survives other checkouts (scripts/python-path, run by setup.sh): each
checkout has its own .pth, so a second checkout set up and then deleted leaves this one importable, with its
own build's extension; the shared perflab.pth of older set-ups is taken over or dropped. Every case runs in a
user site-packages of its own (PYTHONUSERBASE), never the machine's."""

import os
import shutil
import subprocess

import pytest

SCRIPT = "scripts/python-path"


@pytest.fixture
def user_env(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONUSERBASE"] = str(tmp_path / "userbase")
    site = subprocess.run(["/usr/bin/python3", "-m", "site", "--user-site"], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()
    return env, site


def set_up(root, env, checkout=None):
    args = [str(root / SCRIPT)] + ([str(checkout)] if checkout else [])
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def imported_from(env, cwd):
    return subprocess.run(["/usr/bin/python3", "-c", "import perflab, _perflab; print(perflab.__file__); "
                           "print(_perflab.__file__)"], cwd=cwd, env=env, capture_output=True, text=True)


def fake_checkout(path):
    (path / "analysis" / "python" / "perflab").mkdir(parents=True)
    (path / "analysis" / "python" / "perflab" / "__init__.py").write_text("raise ImportError('the other one')\n")
    return path


def test_a_deleted_checkout_leaves_this_one_importable(tmp_path, root, user_env):
    env, site = user_env
    set_up(root, env)
    other = fake_checkout(tmp_path / "other")
    set_up(root, env, other)  # another checkout's set-up, after this one's
    shutil.rmtree(other)
    done = imported_from(env, tmp_path)
    assert done.returncode == 0, done.stderr
    package, extension = done.stdout.split()
    assert package == str(root.resolve() / "analysis" / "python" / "perflab" / "__init__.py")
    assert extension.startswith(str(root.resolve() / "build" / "python"))  # its own build, found by the package
    again = set_up(root, env)  # the next set-up drops the file of the checkout that is gone
    assert "its checkout is gone" in again.stderr
    assert len([name for name in os.listdir(site) if name.endswith(".pth")]) == 1


def test_the_shared_perflab_pth_of_older_set_ups_is_taken_over_or_dropped(tmp_path, root, user_env):
    env, site = user_env
    os.makedirs(site)
    live = fake_checkout(tmp_path / "live")
    with open(os.path.join(site, "perflab.pth"), "w") as pth:
        pth.write(f"{live}/analysis/python\n{live}/build/python\n")
    set_up(root, env)
    assert not os.path.exists(os.path.join(site, "perflab.pth"))
    names = sorted(name for name in os.listdir(site) if name.endswith(".pth"))
    assert len(names) == 2 and any(name.startswith("perflab-live-") for name in names), names

    with open(os.path.join(site, "perflab.pth"), "w") as pth:  # an older set-up's file, its checkout deleted
        pth.write(f"{tmp_path}/gone/analysis/python\n{tmp_path}/gone/build/python\n")
    shutil.rmtree(live)
    set_up(root, env)
    assert sorted(name for name in os.listdir(site) if name.endswith(".pth")) == \
        [name for name in names if not name.startswith("perflab-live-")]
    assert imported_from(env, tmp_path).returncode == 0


def test_an_unbuilt_extension_is_an_import_error_naming_the_build(tmp_path, root):
    copy = tmp_path / "checkout"
    shutil.copytree(root / "analysis" / "python", copy / "analysis" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONUSERBASE")}
    env.update(PYTHONPATH=str(copy / "analysis" / "python"), PYTHONNOUSERSITE="1")
    done = imported_from(env, tmp_path)
    assert done.returncode == 1
    assert f"is not built in {copy}/build/python: run `cmake --build build --target _perflab`" in done.stderr


def test_the_checkout_set_up_last_is_the_one_imported(tmp_path, root, user_env):
    env, site = user_env
    other = tmp_path / "aaa-sorts-first"  # its .pth name sorts before this checkout's
    (other / "analysis" / "python" / "perflab").mkdir(parents=True)
    (other / "analysis" / "python" / "perflab" / "__init__.py").write_text("")

    def imported():
        return subprocess.run(["/usr/bin/python3", "-c", "import perflab; print(perflab.__file__)"], cwd=tmp_path,
                              env=env, capture_output=True, text=True, check=True).stdout.strip()

    set_up(root, env, other)
    done = set_up(root, env)
    assert imported() == str(root.resolve() / "analysis" / "python" / "perflab" / "__init__.py")
    assert "imports perflab from " + str(root.resolve()) in done.stderr
    set_up(root, env, other)
    assert imported() == str(other / "analysis" / "python" / "perflab" / "__init__.py")
    assert len([name for name in os.listdir(site) if name.endswith(".pth")]) == 2
