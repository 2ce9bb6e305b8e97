"""The Markdown form of a report: text with its images and CSVs written into a folder beside it."""

from pathlib import Path

import pandas as pd

from analyzer.reports.comparison import named_differences
from analyzer.reports.formatting import display_texts, file_name, slug
from analyzer.reports.report_spec import Report


class MarkdownWriter:
    """Collects a report's parts as Markdown and its images and CSVs as files under ``assets``."""

    def __init__(self, assets: str):
        self.assets = assets
        self.parts: list[str | None] = []
        self.headings: list[tuple[int, str, str]] = []
        self.taken: dict[str, int] = {}
        self.files: dict[str, bytes] = {}

    def heading(self, level: int, text: str, toc: bool = True) -> None:
        anchor = slug(text, self.taken)
        if toc and level in (2, 3):
            self.headings.append((level, text, anchor))
        self.parts.append(f"{'#' * level} {text}")

    def paragraph(self, text: str) -> None:
        self.parts.append(text)

    def bullets(self, lines: list[str]) -> None:
        self.parts.append("\n".join(f"- {line}" for line in lines))

    def facts(self, facts: list[tuple[str, str]]) -> None:
        self.parts.append("\n".join(f"- **{k}**: `{v}`" if k == "command" else f"- **{k}**: {v}" for k, v in facts))

    def contents(self) -> None:
        self.parts.append(None)

    def _add_file(self, name: str, content: bytes) -> str:
        relative = f"{self.assets}/{file_name(name)}"
        self.files[relative] = content
        return relative

    def table(self, frame: pd.DataFrame, name: str, sortable: bool = True, highlight: bool = False, note: str = "",
              full: pd.DataFrame | None = None, headings: dict[str, str] | None = None) -> None:
        def row(cells) -> str:
            return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

        by_column = display_texts(frame)
        shown, texts = [(headings or {}).get(c, c) for c in by_column], list(by_column.values())
        if highlight and "lo" in frame.columns:
            marks = ["" if not named else "B higher" if lo > 0 else "B lower"
                     for named, lo in zip(named_differences(frame), frame["lo"])]
            texts.append(marks)
            shown.append("excludes 0")
        lines = [row(shown), row(["---"] * len(shown))]
        lines += [row(column[i] for column in texts) for i in range(len(frame))]
        if full is not None:
            link = self._add_file(f"{name}.csv", full.to_csv(index=False).encode())
            lines.append(f"\n{note}; [all {len(full):,} rows as CSV]({link})")
        elif note:
            lines.append(f"\n{note}")
        self.parts.append("\n".join(lines))

    def more(self, frame: pd.DataFrame, note: str, highlight: bool = False, headings: dict[str, str] | None = None
             ) -> None:
        """Markdown shows no collapsed table: the shortened one links the full CSV."""

    def figure(self, path: Path, caption: str, name: str) -> None:
        link = self._add_file(f"{name}{path.suffix}", path.read_bytes())
        self.parts.append(f"![{name}]({link})\n\n*{caption}*")

    def glossary(self, entries: dict[str, str]) -> None:
        self.parts.append("\n".join(f"- **{k}**: {v}" for k, v in sorted(entries.items())))

    def finish(self, title: str) -> Report:
        toc = "\n".join(f"{'  ' * (level - 2)}- [{text}](#{anchor})" for level, text, anchor in self.headings)
        toc = f"**Contents**\n\n{toc}" if toc else ""
        return Report("\n\n".join(toc if part is None else part for part in self.parts) + "\n", self.files)
