"""The question bank as files (DESIGN.md, "Question bank file format": a contract).

One function turns a parsed file into the *canonical dict* of each question, rubric and
loop; export produces exactly the same dict from the database. That single shape is

- what `import_bank` validates (every problem collected, each with file and YAML path),
- what `export_bank` writes (so export → import → export is byte-identical),
- what the admin API reads and writes,
- what a question version's `fingerprint` hashes (status left out: publishing or
  archiving a version does not change what a submission is judged against).

`format`: the YAML codec, defaults, problems and fingerprints; `validation`: raw data →
canonical dicts. Reading them from the database is `interviews.selectors.bank`; importing
and editing them is `interviews.services.bank_import` and `interviews.services.questions`.
"""
