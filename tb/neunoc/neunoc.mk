# Harnesses of the Neu-NoC block (docs/neunoc.md).
