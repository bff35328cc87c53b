from evalcore._moved import moved

moved(__name__, "evalcore.text.ngram_kernels")
