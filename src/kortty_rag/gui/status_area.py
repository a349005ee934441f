"""The main window's status area: what runs, how far it is, Cancel, and how it ended — seen from
every tab (docs/DESIGN.md §5, "Threading and jobs").

While a job runs, its line is redrawn from the job's progress tracker on a timer
(:data:`REFRESH_MS`), not only when a batch ends: the rate and the time left stay current during a
long batch, and the words say what the job is doing ("Loading the embedding model…",
"Embedding…", "Saving…"). Cancel says "Cancelling…" at once and disables itself; the tab that
started the job words the end. A finished job leaves a notice here, with "Show summary" when there is
more to read — never a modal box over whatever tab is open.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QLocale, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QWidget,
)

from kortty_rag.app.workspace import SCAN_MESSAGE
from kortty_rag.gui.common import ask, describe, describe_buttons
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.workers import Job
from kortty_rag.progress import ProgressState

#: the status line is redrawn this often while a job runs (at least twice a second)
REFRESH_MS = 400


def stage_words(stage: str) -> str:
    """What a stage of a job is, in words."""
    if stage == "scan":
        return core_words(SCAN_MESSAGE)
    if stage == "index":
        return translate("StatusArea", "Embedding…")
    if stage == "activate":
        return translate("StatusArea", "Saving…")
    return translate("StatusArea", "Working…")


def time_left(seconds: float) -> str:
    """A rounded, readable time left: "a few seconds left", "about 40 s left", "about 3 min left"."""
    if seconds < 10:
        return translate("StatusArea", "a few seconds left")
    if seconds < 60:
        return translate("StatusArea", "about {seconds} s left").format(
            seconds=max(10, round(seconds / 5) * 5)
        )
    minutes = round(seconds / 60)
    if minutes < 60:
        return translate("StatusArea", "about {minutes} min left").format(minutes=minutes)
    hours, minutes = divmod(minutes, 60)
    return translate("StatusArea", "about {hours} h {minutes} min left").format(
        hours=hours, minutes=f"{minutes:02d}"
    )


def ending_words(title: str, outcome: str) -> str:
    """How a job ended, for a job whose caller left no words of its own in the status line."""
    if outcome == "failed":
        words = translate("StatusArea", "{job}: failed.")
    elif outcome == "cancelled":
        words = translate("StatusArea", "{job}: cancelled.")
    else:
        words = translate("StatusArea", "{job}: done.")
    return words.format(job=title.rstrip("…"))


def progress_words(state: ProgressState) -> str:
    """One job's progress for people: what it does now, counts with their right plural, the share
    done, the throughput and the time left once they mean something."""
    doing = core_words(state.message) if state.message else stage_words(state.stage)
    if state.stage == "scan":
        return translate("StatusArea", "{doing} %n skipped so far", None, state.issues).format(
            doing=doing
        )
    if not state.stage:  # before its first stage (a model loading): nothing is counted yet
        return doing
    locale = QLocale()
    parts = [
        doing,
        translate("StatusArea", "%n document(s)", None, state.documents)
        + ", "
        + translate("StatusArea", "%n chunk(s)", None, state.chunks)
        + ", "
        + translate("StatusArea", "%n issue(s)", None, state.issues),
        translate("StatusArea", "{percent}%").format(percent=f"{state.percent:.0f}"),
    ]
    if state.chunks_per_second > 0:
        parts.append(
            translate("StatusArea", "{rate} chunks/s").format(
                rate=locale.toString(state.chunks_per_second, "f", 1)
            )
        )
    if state.eta_seconds is not None and state.eta_seconds > 0:
        parts.append(time_left(state.eta_seconds))
    return " · ".join(parts)


class StatusArea(QWidget):
    """A line of text, a progress bar, Cancel and "Show summary", at the bottom of the window.

    Signals: ``changed(str)`` — every text the line shows.
    """

    #: every text the line shows
    changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusArea")
        self.message = QLabel("", self)
        self.message.setObjectName("statusLine")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # paths and file text are not markup
        self.summary_button = QPushButton(self.tr("Show s&ummary"), self)
        self.summary_button.setObjectName("showSummaryButton")
        self.summary_button.setFlat(True)
        self.summary_button.setToolTip(self.tr("Open the summary of the job that just ended"))
        self.summary_button.clicked.connect(self.show_summary)
        self.summary_button.hide()
        self.progress = QProgressBar(self)
        self.progress.setObjectName("jobProgress")
        self.progress.setRange(0, 100)
        self.progress.setFormat(self.tr("%p%"))  # German: „7 %“, as the line beside it
        self.progress.setMaximumWidth(220)
        describe(
            self.progress,
            self.tr("How far the job shown in the status line has got"),
            name=self.tr("Job progress"),
        )
        self.progress.hide()
        self.cancel_button = QPushButton(self.tr("Ca&ncel"), self)
        self.cancel_button.setObjectName("cancelJobButton")
        self.cancel_button.setToolTip(self.tr("Stop this job; nothing it has not finished is kept"))
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.summary_button)
        layout.addWidget(self.progress)
        layout.addWidget(self.cancel_button)
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._redraw)
        #: the jobs shown, newest last: (job, title, whether it can be cancelled)
        self._running: list[tuple[Job, str, bool]] = []
        self._summary: tuple[str, str, str] | None = None
        self.summary_box: QMessageBox | None = None
        #: the question a Cancel asks while an index has documents searchable already
        self.keep_box: QMessageBox | None = None
        #: the progress line this area wrote for the job shown last ("" once a caller spoke)
        self._own_line = ""

    def set_text(self, text: str) -> None:
        self._say(text)

    def _say(self, text: str, *, own: bool = False) -> None:
        """``text`` in the status line; ``own`` for a job's progress line this area writes, kept
        apart from a caller's words so that a job ending without them does not leave it standing."""
        self._own_line = text if own else ""
        self.message.setText(text)
        self.message.setToolTip(text if len(text) > 80 else "")
        self.changed.emit(text)

    def track(self, job: Job, title: str, *, cancellable: bool = True) -> None:
        """Show ``job`` from now until it ends: ``title`` and its progress in words; Cancel only
        for a job that can stop. Jobs started meanwhile are shown on top of it, and when they end
        the area returns to it."""
        self._running.append((job, title, cancellable))
        self._summary = None
        self.summary_button.hide()
        job.signals.progress.connect(self._on_progress)  # bound slots: run on the GUI thread
        job.signals.done.connect(self._on_done)
        self._timer.start()
        self._show_top()
        self._say(f"{title}…" if not title.endswith("…") else title, own=True)
        if job.completed.is_set():  # it may have ended before it was connected here: no "done"
            QTimer.singleShot(0, lambda: self._ended(job.signals))

    def _top(self) -> tuple[Job, str, bool] | None:
        return self._running[-1] if self._running else None

    def _show_top(self) -> None:
        top = self._top()
        if top is None:
            self._timer.stop()
            self.progress.hide()
            self.cancel_button.hide()
            return
        job, _, cancellable = top
        self.progress.show()
        self.cancel_button.setVisible(cancellable)
        self.cancel_button.setEnabled(not job.cancel_token.cancelled)
        self._show(job.tracker.state())

    def _redraw(self) -> None:
        top = self._top()
        if top is not None and not top[0].completed.is_set():
            self._show(top[0].tracker.state())

    def _on_progress(self, state: ProgressState) -> None:
        top = self._top()
        if top is not None and self.sender() is top[0].signals:
            self._show(state)  # a job under the one shown waits its turn

    def _show(self, state: ProgressState) -> None:
        top = self._top()
        # an ended job's line is not drawn again: between its result (where the caller says how
        # it ended) and its "done" the timer may still tick
        if top is None or self.cancelling or top[0].completed.is_set():
            return
        self.progress.setValue(round(state.percent))  # the same figure as the text
        if state.stage or state.message:  # nothing to say before the job's first report
            self._say(f"{top[1]} — {progress_words(state)}", own=True)

    @property
    def cancelling(self) -> bool:
        top = self._top()
        return top is not None and top[0].cancel_token.cancelled

    def cancel(self) -> None:
        """Ask the job shown to stop, and say so at once. An index that has already made documents
        searchable first asks whether to keep them (or go on indexing)."""
        top = self._top()
        if top is None or not top[2] or self.cancelling:
            return
        job = top[0]
        published = job.cancel_token.published
        if not published:
            self._stop(job, keep=False)
            return
        question = (
            self.tr("Cancel indexing"),
            self.tr("%n document(s) indexed so far are already searchable.", "", published),
            self.tr(
                "Keep them and index the rest with the next refresh, or discard them and leave "
                "the store as it was before this job?"
            ),
        )
        keep, discard, go_on = 0, 1, 2
        buttons = [
            (self.tr("&Keep them"), QMessageBox.ButtonRole.AcceptRole),
            (self.tr("&Discard them"), QMessageBox.ButtonRole.DestructiveRole),
            (self.tr("&Go on indexing"), QMessageBox.ButtonRole.RejectRole),
        ]

        def answered(chosen: int | None) -> None:
            self.keep_box = None
            if chosen not in (keep, discard) or job.completed.is_set():
                return
            self._stop(job, keep=chosen == keep)

        self.keep_box = ask(self, "keepPublishedBox", question, buttons, answered, default=go_on)

    def _stop(self, job: Job, *, keep: bool) -> None:
        job.cancel(keep_published=keep)
        shown = self._top()
        if shown is not None and shown[0] is job:
            self.cancel_button.setEnabled(False)
            self._say(self.tr("Cancelling…"), own=True)

    def _on_done(self) -> None:
        self._ended(self.sender())

    def _ended(self, signals: object) -> None:
        """The job whose signals these are has ended (once or twice: nothing happens again)."""
        ended = [entry for entry in self._running if entry[0].signals is signals]
        if not ended:
            return
        for entry in ended:
            self._running.remove(entry)
        job, title, _ = ended[-1]
        if not self._running and self._own_line and self.message.text() == self._own_line:
            # nobody said how it ended (a job whose caller only shows a box, or nothing): the
            # progress line must not stand as if the job were still running
            self.set_text(ending_words(title, job.outcome))
        if self._running:  # an older job still runs: back to it (its line comes on the next tick)
            job, _, cancellable = self._running[-1]
            self.cancel_button.setVisible(cancellable)
            self.cancel_button.setEnabled(not job.cancel_token.cancelled)
        else:
            self._show_top()

    def finish(self, text: str, *, title: str = "", summary: str = "", detail: str = "") -> None:
        """The notice a finished job leaves; with ``summary``, "Show summary" opens it (a summary
        box of an earlier job still open is closed then: it would contradict this one)."""
        if summary:
            self._close_summary()
        self.set_text(text)
        self._summary = (title or self.tr("Summary"), summary, detail) if summary else None
        self.summary_button.setVisible(self._summary is not None)

    def _close_summary(self) -> None:
        box = self.summary_box
        if box is not None and shiboken6.isValid(box) and box.isVisible():
            box.close()  # deletes itself (WA_DeleteOnClose)
        self.summary_box = None

    def show_summary(self) -> None:
        """The last job's summary in a box that blocks nothing (it was asked for)."""
        if self._summary is None:
            return
        title, text, detail = self._summary
        box = QMessageBox(
            QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok, self
        )
        box.setObjectName("summaryBox")
        box.setModal(False)
        box.setWindowModality(Qt.WindowModality.NonModal)
        if detail:
            box.setInformativeText(detail)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        describe_buttons(box)
        self._close_summary()  # one summary at a time
        self.summary_box = box
        box.show()
        box.raise_()
        box.activateWindow()  # Enter and Esc close it, not a button of the window under it
        ok = box.button(QMessageBox.StandardButton.Ok)
        if ok is not None:
            ok.setFocus()
