from evalcore.text.preprocess import Preprocessor, function_word_list, tokenize


def test_tokenize_splits_clitics_and_punctuation():
    assert tokenize("Paul Merson's team don't draw, O'Neil 0-0 3.5.") == [
        "Paul", "Merson", "'s", "team", "do", "n't", "draw", ",", "O'Neil", "0-0", "3.5", "."]


def test_tokenize_keeps_pretokenised_text_stable():
    text = "Paul Merson 's team do n't draw , 0-0 ."
    assert tokenize(text) == text.split()


def test_function_words_by_list_flags_closed_class_and_punctuation():
    doc = Preprocessor()("The cat sat on the mat , did n't it ?")
    flagged = {t for t, f in zip(doc.tokens, doc.function) if f}
    assert flagged == {"the", "on", ",", "did", "n't", "it", "?"}
    assert {"cat", "sat", "mat"}.isdisjoint(flagged)


def test_function_words_by_pos_agree_on_plain_sentence():
    by_list = Preprocessor(function_words="list")("The cat sat on the mat.")
    by_pos = Preprocessor(function_words="pos")("The cat sat on the mat.")
    assert by_list == by_pos


def test_no_discount_mode_and_stemming():
    doc = Preprocessor(stem=True, function_words="none")("Running dogs were barking")
    assert doc.tokens == ("run", "dog", "were", "bark")
    assert not any(doc.function)


def test_word_list_is_lowercase_and_substantial():
    words = function_word_list()
    assert len(words) > 200 and all(w == w.lower() for w in words)


def test_non_string_input_is_rejected():
    import pytest

    with pytest.raises(TypeError):
        Preprocessor()(None)  # type: ignore[arg-type]  # wrong type on purpose
