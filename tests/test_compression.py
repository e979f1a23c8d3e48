"""Pages go out in Brotli to a browser that asks for it, else in gzip, each a random number
of bytes longer than it needs to be (BREACH). The browser tests load every page through
this too: Chromium asks for br."""

import gzip
import re

import brotli
import pytest
from hypothesis import given
from hypothesis import strategies as st

from config.compression import brotli_with_padding

PHONE = "gzip, deflate, br, zstd"  # what Chromium asks for


def same(page: bytes) -> bytes:
    """A page without what is new in every response: the CSP nonces, the masked CSRF
    token."""
    return re.sub(rb'(nonce="|"X-CSRFToken": ")[^"]+', rb"\1", page)


@given(content=st.binary(max_size=5000), padding=st.integers(min_value=0, max_value=99))
def test_any_padding_decodes_to_the_content_and_only_adds_its_length(content, padding):
    packed = brotli_with_padding(content, padding)

    assert brotli.decompress(packed) == content
    block = 2 if padding else 0  # the metadata block's header
    assert len(packed) == len(brotli_with_padding(content, 0)) + block + padding


def test_a_page_asked_for_in_brotli_arrives_in_brotli_and_reads_the_same(client, db):
    plain = client.get("/regeln/")
    packed = client.get("/regeln/", headers={"Accept-Encoding": PHONE})

    assert packed["Content-Encoding"] == "br"
    assert "Accept-Encoding" in packed["Vary"]
    assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content) / 3
    assert same(brotli.decompress(packed.content)) == same(plain.content)
    assert plain.content.startswith(b"<!doctype html>")


def test_the_length_varies_from_answer_to_answer(client, db):
    lengths = {
        len(client.get("/regeln/", headers={"Accept-Encoding": PHONE}).content) for _ in range(12)
    }

    assert len(lengths) > 1


@pytest.mark.parametrize("accepted", ["gzip, deflate", "gzip"])
def test_without_brotli_the_browser_gets_gzip(client, db, accepted):
    plain = client.get("/regeln/")
    packed = client.get("/regeln/", headers={"Accept-Encoding": accepted})

    assert packed["Content-Encoding"] == "gzip"
    assert same(gzip.decompress(packed.content)) == same(plain.content)


def test_a_streamed_answer_is_gzip_also_for_a_brotli_browser(client, admin, club, runde):
    client.force_login(admin)
    path = f"/verein/{club.pk}/runde/{runde.pk}/csv/"
    plain = b"".join(client.get(path).streaming_content)
    packed = client.get(path, headers={"Accept-Encoding": PHONE})

    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(packed.streaming_content)) == plain
    assert b";" in plain.splitlines()[0]  # the CSV's head


def test_a_short_answer_is_not_compressed(client, db):
    answer = client.get("/healthz", headers={"Accept-Encoding": PHONE})

    assert answer.status_code == 200
    assert not answer.has_header("Content-Encoding")
