import sgf_grove


def test_version_is_the_crate_version():
    assert sgf_grove.__version__ == "0.1.0"
