"""Static files as served in production: hashed and compressed by WhiteNoise, and the
stylesheet and scripts without their comments and indents, which explain the source but
cost a cold entry screen about 3 KB on the wire (of a 30 KB budget)."""

import os
import re

from whitenoise.storage import CompressedManifestStaticFilesStorage

# A comment, or a quoted string kept as it is (so "/*" inside one is no comment).
_COMMENT_OR_STRING = re.compile(r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|/\*.*?\*/""", re.S)
_BLANK_LINES = re.compile(r"[ \t]*\n(?:[ \t]*\n)*")
# The indent of a line: neither language needs it, and no string of ours spans lines.
_INDENT = re.compile(r"^[ \t]+", re.M)


def without_comments(css: str) -> str:
    """The stylesheet without its comments, its indents and the blank lines and spaces
    they leave."""
    css = _COMMENT_OR_STRING.sub(lambda match: match.group(1) or "", css)
    return _INDENT.sub("", _BLANK_LINES.sub("\n", css)).strip() + "\n"


# A line that is a comment and nothing else. Our scripts have no strings over several
# lines (no template literals), so no such line is inside one.
_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.M)


def without_comment_lines(script: str) -> str:
    """A script without the lines that are only a comment (`// ...`), its indents and its
    blank lines; comments after code stay, since telling them from "//" in a string or a
    pattern takes a JavaScript parser."""
    return _INDENT.sub("", _BLANK_LINES.sub("\n", _COMMENT_LINE.sub("", script)))


SHORTENED = {".css": without_comments, ".js": without_comment_lines}
OURS = {"css", "js"}  # the folders of static/


class StaticStorage(CompressedManifestStaticFilesStorage):
    def compress_files(self, paths):
        # The files are hashed by then (from the source, so the name still changes with
        # it); each of ours (static/css, static/js) is shortened once before WhiteNoise
        # compresses it. Others' (htmx, the admin's) are left as they are.
        for path in paths:
            shorten = SHORTENED.get(os.path.splitext(path)[1])
            if shorten is None or path.split("/")[0] not in OURS:
                continue
            with open(self.path(path), encoding="utf-8") as file:
                text = file.read()
            with open(self.path(path), "w", encoding="utf-8") as file:
                file.write(shorten(text))
        return super().compress_files(paths)
