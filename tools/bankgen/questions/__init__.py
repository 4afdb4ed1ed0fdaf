"""One module per generated coding question; each defines `spec() -> QuestionSpec`."""
