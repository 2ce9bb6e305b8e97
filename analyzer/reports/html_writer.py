"""The HTML form of a report: one self-contained file (inline images, sortable tables, a table of contents)."""

import base64
import html
import re
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.reports.comparison import named_differences
from analyzer.reports.formatting import display_texts, file_name, slug
from analyzer.reports.report_spec import Report


def _data_uri(content: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(content).decode('ascii')}"


def _mime(path: Path) -> str:
    return "image/svg+xml" if path.suffix == ".svg" else "image/png"


_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:88em;margin:1.5em auto;padding:0 1em;
color:#1d1d1d;line-height:1.45}
h1{font-size:1.7em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;background:#f6f8fa;padding:.8em 1em;
border-radius:6px}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
ul.findings{background:#eef6ee;border-left:4px solid #3c8d40;padding:.7em 1em .7em 2.2em;border-radius:4px}
nav.toc{background:#f6f8fa;padding:.5em 1em;border-radius:6px}nav.toc ul{margin:.2em 0}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}td,th{border:1px solid #ccc;padding:.2em .6em}
td.num{text-align:right;font-variant-numeric:tabular-nums}td{white-space:nowrap}
table:not(.sortable) td{white-space:normal;vertical-align:top}td.wrap{white-space:normal;min-width:12em}
th{background:#eee;position:sticky;top:0}
table.sortable th{cursor:pointer}table.sortable th:after{content:" \\2195";color:#999}
tr.up td{background:#dff3df}tr.down td{background:#f8dcdc}tbody tr:nth-child(even){background:#fafafa}
.tablewrap{max-height:40em;overflow:auto;display:inline-block;max-width:100%}
p.note{color:#555;font-size:.9em;margin:.2em 0}
figure{margin:1em 0 2em}figure img{max-width:100%;height:auto;cursor:zoom-in;border:1px solid #eee}
figure img.zoom{max-width:none;cursor:zoom-out}figure .scroll{overflow:auto}
figcaption{color:#333;margin-top:.3em;max-width:60em}
pre{background:#f4f4f4;padding:.5em;overflow:auto}code{font-size:.95em}
dl.glossary{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em}dl.glossary dt{font-weight:600}
dl.glossary dd{margin:0}code.command{overflow-wrap:anywhere}code.command span{white-space:nowrap}
dl.facts dd{min-width:0;overflow-wrap:anywhere}
@media (max-width:40em){dl.glossary{grid-template-columns:1fr;gap:0}dl.glossary dd{margin:0 0 .5em 1em}}
"""


#: Longest text of a column kept on one line in a table.
_LONG_TEXT = 30
#: Longest argument of a command line kept on one line (a longer one, a Schnapsen position, wraps anywhere).
_WHOLE_ARGUMENT = 40


#: One shell argument as written: unquoted runs and quoted strings side by side.
_ARGUMENT = re.compile(r"""(?:[^\s'"]+|'[^']*'|"[^"]*")+|\S+""")


def _command(line: str) -> str:
    """A shell command line as HTML that a narrow page breaks between arguments only, not at the hyphens
    inside ``--deals``; each argument keeps its quoting as written (and a text that is no command, such as
    "(not recorded)", reads as written)."""
    words = _ARGUMENT.findall(line)
    return '<code class="command">' + " ".join(
        f"<span>{html.escape(w)}</span>" if len(w) <= _WHOLE_ARGUMENT else html.escape(w) for w in words) + "</code>"


_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th, column) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute('data-order') !== 'ascending';
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute('data-v'), y = b.cells[column].getAttribute('data-v');
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (isNaN(nx) || isNaN(ny)) ? String(x).localeCompare(String(y)) : nx - ny;
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      table.querySelectorAll('th').forEach(function (other) { other.removeAttribute('data-order'); });
      th.setAttribute('data-order', up ? 'ascending' : 'descending');
    });
  });
});
document.querySelectorAll('figure img').forEach(function (img) {
  img.addEventListener('click', function () { img.classList.toggle('zoom'); });
});
"""


class HtmlWriter:
    """Collects a report's parts as HTML; :meth:`finish` makes the self-contained file."""

    def __init__(self):
        self.parts: list[str] = []
        self.headings: list[tuple[int, str, str]] = []
        self.taken: dict[str, int] = {}

    def heading(self, level: int, text: str, toc: bool = True) -> None:
        anchor = slug(text, self.taken)
        if toc and level in (2, 3):
            self.headings.append((level, text, anchor))
        self.parts.append(f'<h{level} id="{anchor}">{html.escape(text)}</h{level}>')

    def paragraph(self, text: str) -> None:
        self.parts.append(f"<p>{html.escape(text)}</p>")

    def bullets(self, lines: list[str]) -> None:
        self.parts.append('<ul class="findings">' + "".join(f"<li>{html.escape(t)}</li>" for t in lines) + "</ul>")

    def facts(self, facts: list[tuple[str, str]]) -> None:
        items = "".join(f"<dt>{html.escape(k)}</dt><dd>{_command(v) if k == 'command' else html.escape(v)}</dd>"
                        for k, v in facts)
        self.parts.append(f'<dl class="facts">{items}</dl>')

    def contents(self) -> None:
        self.parts.append(None)  # the table of contents goes here once every heading is known

    def table(self, frame: pd.DataFrame, name: str, sortable: bool = True, highlight: bool = False, note: str = "",
              full: pd.DataFrame | None = None, headings: dict[str, str] | None = None) -> None:
        csv = _data_uri((frame if full is None else full).to_csv(index=False).encode(), "text/csv")
        link = f' <a download="{html.escape(file_name(name))}.csv" href="{csv}">download CSV</a>' if sortable else ""
        self.parts.append(self._table(frame, sortable, highlight, headings) + (f'<p class="note">{html.escape(note)}{link}</p>'
                                                                     if note or link else ""))

    def more(self, frame: pd.DataFrame, note: str, highlight: bool = False, headings: dict[str, str] | None = None
             ) -> None:
        self.parts.append(f"<details><summary>{html.escape(note)}</summary>"
                          f"{self._table(frame, True, highlight, headings)}</details>")

    def _table(self, frame: pd.DataFrame, sortable: bool, highlight: bool, headings: dict[str, str] | None) -> str:
        texts = display_texts(frame)
        numeric = {c: pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
                   for c in texts}
        # a column of sentences wraps (advise's "hearts trumps, calls DA; Rik in hearts, ..."); codes and numbers
        # stay on one line
        wraps = {c for c in texts if not numeric[c] and max(map(len, texts[c]), default=0) > _LONG_TEXT}
        headings = headings or {}
        head = "".join(f"<th>{html.escape(headings.get(c, str(c)))}</th>" for c in texts)
        body = []
        named = named_differences(frame) if highlight and "lo" in frame.columns else np.zeros(len(frame), dtype=bool)
        for i in range(len(frame)):
            css = "" if not named[i] else ' class="up"' if frame["lo"].iloc[i] > 0 else ' class="down"'
            cells = []
            for column, cell_texts in texts.items():
                value = frame[column].iloc[i]
                raw = value if numeric[column] and pd.notna(value) else cell_texts[i]  # sorted by its value
                kind = " class=num" if numeric[column] else " class=wrap" if column in wraps else ""
                cells.append(f'<td{kind} data-v="{html.escape(str(raw))}">'
                             f"{html.escape(cell_texts[i])}</td>")
            body.append(f"<tr{css}>{''.join(cells)}</tr>")
        return (f'<div class="tablewrap"><table{" class=sortable" if sortable else ""}><thead><tr>{head}</tr></thead>'
                f"<tbody>{''.join(body)}</tbody></table></div>")

    def figure(self, path: Path, caption: str, name: str) -> None:
        self.parts.append(f'<figure><div class="scroll"><img alt="{html.escape(name)}" '
                          f'src="{_data_uri(path.read_bytes(), _mime(path))}"></div>'
                          f"<figcaption>{html.escape(caption)} (click to enlarge)</figcaption></figure>")

    def glossary(self, entries: dict[str, str]) -> None:
        items = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in sorted(entries.items()))
        self.parts.append(f'<dl class="glossary">{items}</dl>')

    def finish(self, title: str) -> Report:
        items, depth = [], 2
        for level, text, anchor in self.headings:
            while depth < level:
                items.append("<ul>")
                depth += 1
            while depth > level:
                items.append("</ul>")
                depth -= 1
            items.append(f'<li><a href="#{anchor}">{html.escape(text)}</a></li>')
        items += ["</ul>"] * (depth - 2)
        toc = f'<nav class="toc"><strong>Contents</strong><ul>{"".join(items)}</ul></nav>' if self.headings else ""
        body = "\n".join(toc if part is None else part for part in self.parts)
        return Report(f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      f"<meta name=\"viewport\" content=\"width=device-width\"><title>{html.escape(title)}</title>"
                      f"<style>{_STYLE}</style></head><body>\n{body}\n<script>{_SCRIPT}</script></body></html>\n")
