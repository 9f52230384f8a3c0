"""The reference corpus: the licence texts Debian's base-files package installs under
/usr/share/common-licenses, read as bytes. Standard library only."""

import hashlib
import os
import subprocess

CORPUS_DIR = "/usr/share/common-licenses"
VALIDATION_SHARE = 0.10


class CorpusError(Exception):
    pass


def corpus_files(directory=CORPUS_DIR):
    """Regular files in sorted name order. Symbolic links (GPL -> GPL-3, ...) are left out:
    they repeat a text that is already there and would leak it across the split."""
    try:
        names = sorted(os.listdir(directory))
    except OSError as e:
        raise CorpusError("cannot read the corpus folder %s: %s (Debian's base-files package installs it)"
                          % (directory, e.strerror))
    files = []
    for name in names:
        path = os.path.join(directory, name)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        files.append(path)
    if not files:
        raise CorpusError("the corpus folder %s holds no files" % directory)
    return files


def base_files_version():
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "base-files"], capture_output=True,
                             text=True, timeout=10)
        return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def load(directory=CORPUS_DIR):
    """Returns (data: bytes, info: dict). info: files, bytes, sha256, train_bytes,
    validation_bytes (the last VALIDATION_SHARE of the bytes, held out)."""
    files = corpus_files(directory)
    chunks = []
    for path in files:
        with open(path, "rb") as f:
            chunks.append(f.read())
    data = b"".join(chunks)
    split = len(data) - int(len(data) * VALIDATION_SHARE)
    info = {
        "directory": directory,
        "files": [os.path.basename(p) for p in files],
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "train_bytes": split,
        "validation_bytes": len(data) - split,
        "base_files_version": base_files_version(),
    }
    return data, info
