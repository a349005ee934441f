"""The desktop app's language (docs/DESIGN.md "Languages and accessibility"): German or English,
Qt's own translation machinery, and the core's messages said in the same language.

- The language follows the system locale (German for any German locale, else English);
  ``KORTTY_LANG=de`` or ``KORTTY_LANG=en`` overrides it.
- The app's own strings go through ``tr()`` (inside a ``QObject``) or :func:`translate` (module
  functions); ``resources/translations/kortty_rag_de.qm`` holds the German,
  ``kortty_rag_en.qm`` the English plural forms (``%n``). Qt's own words (file dialogs, the
  buttons of message boxes) come from the ``qtbase_*.qm`` that Qt ships.
- The core words its messages once, in English (:mod:`kortty_rag.messages`), and stays free of Qt;
  :mod:`kortty_rag.gui.core_messages` says them in the app's language.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from kortty_rag.resource_files import resource_path

_log = logging.getLogger(__name__)

#: the languages the app speaks, by the code KORTTY_LANG takes
LANGUAGES = ("en", "de")
#: the environment variable that overrides the system locale
LANG_VARIABLE = "KORTTY_LANG"
#: the translation context of the core's messages (``msg`` is lupdate's ``QT_TR_NOOP``)
CORE_CONTEXT = ""


def chosen_language(environ: Mapping[str, str] | None = None) -> str:
    """``de`` or ``en``: KORTTY_LANG when it names one of them, else the system locale's."""
    value = (os.environ if environ is None else environ).get(LANG_VARIABLE, "").strip().lower()
    code = value.replace("-", "_").split("_", 1)[0].split(".", 1)[0]
    if code in LANGUAGES:
        return code
    if value:
        _log.warning(
            "%s=%r is not one of %s; following the system locale", LANG_VARIABLE, value, LANGUAGES
        )
    for wanted in QLocale.system().uiLanguages():  # the user's languages, in their order
        code = wanted.replace("-", "_").split("_", 1)[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``text`` in the app's language, for code outside a ``QObject`` (lupdate collects the
    literal ``translate("Context", "text")`` calls); ``n`` picks the plural form of ``%n``."""
    return QCoreApplication.translate(context, text, disambiguation, n)


@dataclass
class Translations:
    """The translators installed for one language; :meth:`remove` takes them out again."""

    language: str
    translators: list[QTranslator] = field(default_factory=list)

    def remove(self) -> None:
        for translator in self.translators:
            QCoreApplication.removeTranslator(translator)
        self.translators.clear()
        if self in _state.installed:
            _state.installed.remove(self)
        _state.language = "en"
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))


class _State:
    language = "en"
    #: what is installed: Qt keeps only a pointer to a translator, so Python must keep it alive
    installed: list[Translations] = []  # noqa: RUF012 (one state per process)


_state = _State()


def current_language() -> str:
    return _state.language


def install(language: str) -> Translations:
    """Install the app's and Qt's translations for ``language`` into the running application;
    numbers and dates follow it too (``QLocale.setDefault``)."""
    installed = Translations(language)
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("install translations after the QApplication exists")
    with resource_path(f"translations/kortty_rag_{language}.qm") as own:
        _load(installed, own.parent, own.stem)
    if language != "en":
        qt_folder = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
        _load(installed, qt_folder, f"qtbase_{language}")
    for translator in installed.translators:
        app.installTranslator(translator)
    _state.installed.append(installed)
    _state.language = language
    if language == "de":
        QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    else:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    return installed


def _load(installed: Translations, folder: Path, name: str) -> None:
    translator = QTranslator()
    if translator.load(name, str(folder)):
        installed.translators.append(translator)
    else:  # the app still works, in English words where these were missing
        _log.warning("no translation %s in %s", name, folder)
