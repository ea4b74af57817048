# Harnesses of the NeuMMU block (docs/neummu.md).
