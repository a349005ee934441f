<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>BackupActions</name>
    <message numerus="yes">
        <source>{name}: imported as {store}, with korTTY&apos;s vectors for %n chunk(s) (nothing embedded)</source>
        <translation>
            <numerusform>{name}: imported as {store}, with korTTY&apos;s vectors for %n chunk (nothing embedded)</numerusform>
            <numerusform>{name}: imported as {store}, with korTTY&apos;s vectors for %n chunks (nothing embedded)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>  %n source(s) wait for your review: select {store} and press Review… there</source>
        <translation>
            <numerusform>  %n source waits for your review: select {store} and press Review… there</numerusform>
            <numerusform>  %n sources wait for your review: select {store} and press Review… there</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n document</numerusform>
            <numerusform>%n documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s)</source>
        <translation>
            <numerusform>%n chunk</numerusform>
            <numerusform>%n chunks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n source(s) left out (Show summary says why).</source>
        <translation>
            <numerusform>%n source left out (Show summary says why).</numerusform>
            <numerusform>%n sources left out (Show summary says why).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported {count} of korTTY&apos;s %n store(s).</source>
        <translation>
            <numerusform>Imported {count} of korTTY&apos;s %n store.</numerusform>
            <numerusform>Imported {count} of korTTY&apos;s %n stores.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CheckDialog</name>
    <message numerus="yes">
        <source>%n judged question(s)</source>
        <translation>
            <numerusform>%n judged question</numerusform>
            <numerusform>%n judged questions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n question(s)</source>
        <translation>
            <numerusform>%n question</numerusform>
            <numerusform>%n questions</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CheckStoresDialog</name>
    <message numerus="yes">
        <source>%n problem(s) found, {warnings}.</source>
        <translation>
            <numerusform>%n problem found, {warnings}.</numerusform>
            <numerusform>%n problems found, {warnings}.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n warning</numerusform>
            <numerusform>%n warnings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) found.</source>
        <translation>
            <numerusform>%n problem found.</numerusform>
            <numerusform>%n problems found.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Every store is healthy, %n warning(s).</source>
        <translation>
            <numerusform>Every store is healthy, %n warning.</numerusform>
            <numerusform>Every store is healthy, %n warnings.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProfileEditor</name>
    <message numerus="yes">
        <source>Connected: the model answered. The server offers %n: {models}.</source>
        <translation>
            <numerusform>Connected: the model answered. The server offers %n: {models}.</numerusform>
            <numerusform>Connected: the model answered. The server offers %n: {models}.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewBanner</name>
    <message numerus="yes">
        <source>%n source(s) came with an imported store and were not reviewed on this computer (among them {path}). Nothing is read from them until you review them.</source>
        <translation>
            <numerusform>%n source came with an imported store and was not reviewed on this computer ({path}). Nothing is read from it until you review it.</numerusform>
            <numerusform>%n sources came with an imported store and were not reviewed on this computer (among them {path}). Nothing is read from them until you review them.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewDialog</name>
    <message numerus="yes">
        <source>Not added: %n selected path(s) (see the table)</source>
        <translation>
            <numerusform>Not added: %n selected path (see the table)</numerusform>
            <numerusform>Not added: %n selected paths (see the table)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln character</numerusform>
            <numerusform>%Ln characters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln chunk(s)</source>
        <translation>
            <numerusform>%Ln chunk</numerusform>
            <numerusform>%Ln chunks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ScanReportDialog</name>
    <message numerus="yes">
        <source>%n issue(s) (files that could not be read or extracted)</source>
        <translation>
            <numerusform>%n issue (files that could not be read or extracted)</numerusform>
            <numerusform>%n issues (files that could not be read or extracted)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) left out by a rule (hidden, ignored, unsupported, empty or too large)</source>
        <translation>
            <numerusform>%n file left out by a rule (hidden, ignored, unsupported, empty or too large)</numerusform>
            <numerusform>%n files left out by a rule (hidden, ignored, unsupported, empty or too large)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more are not listed.</source>
        <translation>
            <numerusform>%n more is not listed.</numerusform>
            <numerusform>%n more are not listed.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SourceTableModel</name>
    <message numerus="yes">
        <source>%n file(s) left out by a rule (hidden, ignored, unsupported, empty, too large) — double-click for the list</source>
        <translation>
            <numerusform>%n file left out by a rule (hidden, ignored, unsupported, empty, too large) — double-click for the list</numerusform>
            <numerusform>%n files left out by a rule (hidden, ignored, unsupported, empty, too large) — double-click for the list</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) that could not be read or extracted — double-click for the list</source>
        <translation>
            <numerusform>%n file that could not be read or extracted — double-click for the list</numerusform>
            <numerusform>%n files that could not be read or extracted — double-click for the list</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StatusArea</name>
    <message numerus="yes">
        <source>{doing} %n skipped so far</source>
        <translation>
            <numerusform>{doing} %n skipped so far</numerusform>
            <numerusform>{doing} %n skipped so far</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n document</numerusform>
            <numerusform>%n documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s)</source>
        <translation>
            <numerusform>%n chunk</numerusform>
            <numerusform>%n chunks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n issue(s)</source>
        <translation>
            <numerusform>%n issue</numerusform>
            <numerusform>%n issues</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) indexed so far are already searchable.</source>
        <translation>
            <numerusform>%n document indexed so far is already searchable.</numerusform>
            <numerusform>%n documents indexed so far are already searchable.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StoresActions</name>
    <message numerus="yes">
        <source>Removed {path} and its %n chunk(s).</source>
        <translation>
            <numerusform>Removed {path} and its %n chunk.</numerusform>
            <numerusform>Removed {path} and its %n chunks.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Its %n chunk(s) are deleted from the index. The files themselves are not touched.</source>
        <translation>
            <numerusform>Its %n chunk is deleted from the index. The files themselves are not touched.</numerusform>
            <numerusform>Its %n chunks are deleted from the index. The files themselves are not touched.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rebuilt {store} from %n document(s): {chunks}.</source>
        <translation>
            <numerusform>Rebuilt {store} from %n document: {chunks}.</numerusform>
            <numerusform>Rebuilt {store} from %n documents: {chunks}.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Every file of its %n source(s) is read again into a fresh index; text a local store already holds keeps its vectors when the model is the same, the rest is embedded. Until that is complete the store keeps answering from its current one; your files are only read.</source>
        <translation>
            <numerusform>Every file of its %n source is read again into a fresh index; text a local store already holds keeps its vectors when the model is the same, the rest is embedded. Until that is complete the store keeps answering from its current one; your files are only read.</numerusform>
            <numerusform>Every file of its %n sources is read again into a fresh index; text a local store already holds keeps its vectors when the model is the same, the rest is embedded. Until that is complete the store keeps answering from its current one; your files are only read.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted: its index folder {folder} (%n source definition(s), their chunks and vectors).
Not deleted: your files and folders, the embedding model, and any file in that folder that kortty-rag did not create.</source>
        <translation>
            <numerusform>Deleted: its index folder {folder} (%n source definition, its chunks and vectors).
Not deleted: your files and folders, the embedding model, and any file in that folder that kortty-rag did not create.</numerusform>
            <numerusform>Deleted: its index folder {folder} (%n source definitions, their chunks and vectors).
Not deleted: your files and folders, the embedding model, and any file in that folder that kortty-rag did not create.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StoresIndexing</name>
    <message numerus="yes">
        <source>%n sources</source>
        <translation>
            <numerusform>%n source</numerusform>
            <numerusform>%n sources</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the new %n sources were not added.</source>
        <translation>
            <numerusform>the new %n source was not added.</numerusform>
            <numerusform>the new %n sources were not added.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StoresState</name>
    <message numerus="yes">
        <source>%n document(s) indexed so far stay searchable in {store}; Refresh now indexes the rest.</source>
        <translation>
            <numerusform>%n document indexed so far stays searchable in {store}; Refresh now indexes the rest.</numerusform>
            <numerusform>%n documents indexed so far stay searchable in {store}; Refresh now indexes the rest.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StoresTab</name>
    <message numerus="yes">
        <source>%n new or changed</source>
        <translation>
            <numerusform>%n new or changed</numerusform>
            <numerusform>%n new or changed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unchanged</source>
        <translation>
            <numerusform>%n unchanged</numerusform>
            <numerusform>%n unchanged</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation>
            <numerusform>%n removed</numerusform>
            <numerusform>%n removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n skipped</source>
        <translation>
            <numerusform>%n skipped</numerusform>
            <numerusform>%n skipped</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{documents}, %n with issue(s)</source>
        <translation>
            <numerusform>{documents}, %n with an issue</numerusform>
            <numerusform>{documents}, %n with issues</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n path(s)</source>
        <translation>
            <numerusform>%n path</numerusform>
            <numerusform>%n paths</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) read again into a fresh index</source>
        <translation>
            <numerusform>%n document read again into a fresh index</numerusform>
            <numerusform>%n documents read again into a fresh index</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n chunk(s) embedded</source>
        <translation>
            <numerusform>%n chunk embedded</numerusform>
            <numerusform>%n chunks embedded</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{embedded}, %n reused without embedding again</source>
        <translation>
            <numerusform>{embedded}, %n reused without embedding again</numerusform>
            <numerusform>{embedded}, %n reused without embedding again</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n other reason(s)</source>
        <translation>
            <numerusform>… and %n other reason</numerusform>
            <numerusform>… and %n other reasons</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TestSearchDialog</name>
    <message numerus="yes">
        <source>%n excerpt(s)</source>
        <translation>
            <numerusform>%n excerpt</numerusform>
            <numerusform>%n excerpts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dropped</source>
        <translation>
            <numerusform>%n dropped</numerusform>
            <numerusform>%n dropped</numerusform>
        </translation>
    </message>
</context>
</TS>
