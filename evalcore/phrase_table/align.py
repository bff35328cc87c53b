from evalcore._moved import moved

moved(__name__, "evalcore.resources.phrase_table.align")
