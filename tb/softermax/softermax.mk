# Harnesses of the Softermax block.
