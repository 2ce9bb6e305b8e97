"""Hand-record files (PBN, LIN) read as text, with the checks every reader makes."""

from pathlib import Path

from analyzer.errors import InputError

MAX_RECORD_BYTES = 16 << 20


def read_record_text(path, kind: str) -> str:
    """The text of the hand-record file ``path`` (a ``kind`` file: PBN, LIN), read as UTF-8 or else as
    Latin-1 (the character set of the PBN standard); a missing, unreadable, binary or oversized file is a
    one-line :class:`InputError`."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise InputError(f"{path}: larger than {MAX_RECORD_BYTES >> 20} MiB; is it a {kind} file?")
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    if b"\x00" in data:
        raise InputError(f"{path}: not a text file; a {kind} file is text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")
