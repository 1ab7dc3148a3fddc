# Sourced by capture-trace.sh and count-remote-lookups.sh, so that both clone the same repository with JGit.
# Needs git.

# make_clone_source DIR: a small repository at DIR: a few commits, a branch, a tag, files in subdirectories.
make_clone_source() (
  git init -q "$1"
  cd "$1"
  git config user.email capture@perflab.invalid
  git config user.name "perflab capture"
  mkdir -p docs src/main
  for i in 1 2 3 4 5; do
    echo "line $i of the readme" >>README.md
    seq 1 $((i * 50)) >src/main/numbers.txt
    echo "document $i" >"docs/doc$i.txt"
    git add -A
    git commit -q -m "commit $i"
  done
  git tag v1.0
  git branch feature
)
