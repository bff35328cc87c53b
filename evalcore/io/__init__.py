"""Files in and out: users' text files (the input rule), data-only model files and cache entries,
text tables, and the run record every report of measured figures carries."""
