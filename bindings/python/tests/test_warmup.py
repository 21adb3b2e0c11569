"""The warmup Python package against the library it wraps: generate, inspect,
run (null, embedded, remote through warmup.Server), the Engine's reads, errors."""

import datetime
import decimal
import signal
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import warmup


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A generated tiny snapshot, shared by the tests that only read it."""
    return warmup.generate("tiny", 1.0, tmp_path_factory.mktemp("pristine"), seed=3)


def test_generate_and_inspect_agree(tiny):
    info = warmup.inspect(tiny)
    counts = {c["entity_type"]: c["count"] for c in info["collections"]}
    assert counts["Product"] == 200
    assert sum(counts.values()) == 300
    assert info["total_count"] == 300
    assert info["provenance"]["generator.profile"] == "tiny"


def test_generate_twice_into_the_same_place_raises_already_exists(tiny):
    with pytest.raises(warmup.AlreadyExistsError, match="tiny"):
        warmup.generate("tiny", 1.0, str(tiny).rsplit("/", 1)[0], seed=3)


def test_a_bad_path_raises_not_found(tmp_path):
    with pytest.raises(warmup.NotFoundError) as raised:
        warmup.inspect(tmp_path / "nothing-here")
    assert "nothing-here" in str(raised.value)
    assert isinstance(raised.value, warmup.Error)


def test_bad_arguments_raise_invalid_argument(tiny, tmp_path):
    with pytest.raises(warmup.InvalidArgumentError, match="profile"):
        warmup.generate("no-such-profile", 1.0, tmp_path)
    with pytest.raises(warmup.InvalidArgumentError, match="needs work_dir"):
        warmup.run(tiny, target="embedded", work_dir=None)
    with pytest.raises(warmup.InvalidArgumentError, match='"embedded", "remote" or "null"'):
        warmup.run(tiny, target="elsewhere")
    # Regression: "open" (a C++ caller's own target) once fell through to the null target.
    for library_only in ("open", "started-server"):
        with pytest.raises(warmup.InvalidArgumentError, match='"embedded", "remote" or "null"'):
            warmup.run(tiny, target=library_only)


def test_run_into_the_null_target_reports_every_collection(tiny):
    report = warmup.run(tiny, target="null", run_label="py-null")
    assert report["schema"] == "warmup-run/9"
    assert report["run_label"] == "py-null"
    assert report["exit_code"] == 0
    assert report["verification"]["outcome"] == "not_applicable"  # the null target stores nothing to verify
    assert {c["entity_type"] for c in report["collections"]} == {
        "Brand", "Category", "Parameter", "ParameterValue", "Product"}
    assert report["copied"] == report["expected"] == 300


def test_run_embedded_with_progress_and_a_generator_source(tmp_path):
    calls = []
    report = warmup.run({"profile": "senesi", "scale": 0.002, "seed": 2}, target="embedded",
                        work_dir=tmp_path / "work", progress=calls.append)
    assert report["exit_code"] == 0
    done = [c for c in calls if c["collection_done"]]
    assert [c["collection"] for c in done] == [c["entity_type"] for c in report["collections"]]
    assert all(c["copied"] == c["expected"] for c in done)
    assert report["index_statistics"], "the embedded engine reports its indexes"


def test_an_exception_in_progress_stops_the_run_and_is_raised(tiny, tmp_path):
    def fail(_):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        warmup.run(tiny, target="embedded", work_dir=tmp_path / "work", progress=fail)


def test_ctrl_c_interrupts_a_run_between_upserts(tmp_path):
    source = {"profile": "senesi", "scale": 0.05, "seed": 1}
    timer = threading.Timer(0.5, lambda: signal.raise_signal(signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            warmup.run(source, target="embedded", work_dir=tmp_path / "work")
    finally:
        timer.cancel()
    # The interrupted run dropped its catalog: the work directory holds none.
    engine = warmup.Engine(str(tmp_path / "work"))
    assert engine.catalog_names() == []


def test_remote_run_against_an_in_process_server(tiny, tmp_path):
    with warmup.Server(tmp_path / "server") as server:
        assert server.port > 0
        report = warmup.run(tiny, target="remote", address=server.address, verify="content")
    assert report["exit_code"] == 0
    assert report["verification"]["content_compared"] == 300
    assert report["server"] is not None, "warmup serve reports its own time per upsert"


def source_counts(snapshot):
    """Entities per collection as the snapshot's own inspection counts them."""
    return {c["entity_type"]: c["count"] for c in warmup.inspect(snapshot)["collections"]}


def test_run_with_a_list_of_collections_copies_those_alone(tiny, tmp_path):
    counts = source_counts(tiny)
    report = warmup.run(tiny, target="embedded", work_dir=tmp_path / "work", collections=["Category", "Brand"])
    assert report["exit_code"] == 0
    assert report["verification"]["outcome"] == "verified"
    assert {c["entity_type"] for c in report["collections"]} == {"Brand", "Category"}
    assert report["copied"] == report["expected"] == counts["Brand"] + counts["Category"] == 50
    assert sorted(report["config"]["collections"]) == ["Brand", "Category"]
    assert report["collection_subset"] is True
    engine = warmup.Engine(str(tmp_path / "work"))
    catalog = engine.catalog(report["target_catalog"])
    copied = {t: catalog.count(t) for t in catalog.entity_types}
    assert copied["Brand"] == counts["Brand"] and copied["Category"] == counts["Category"]
    assert all(n == 0 for t, n in copied.items() if t not in ("Brand", "Category")), copied
    engine.close()


def test_regression_run_split_one_collection_named_as_a_string_into_its_characters(tiny):
    report = warmup.run(tiny, target="null", collections="Brand")
    assert [c["entity_type"] for c in report["collections"]] == ["Brand"]
    assert report["config"]["collections"] == ["Brand"]


def test_run_with_max_per_collection_caps_every_collection(tiny, tmp_path):
    counts = source_counts(tiny)
    assert min(counts.values()) > 7  # so that the cap cuts every collection
    report = warmup.run(tiny, target="embedded", work_dir=tmp_path / "work", max_per_collection=7)
    assert report["exit_code"] == 0
    assert report["verification"]["outcome"] == "verified"  # against the capped counts (docs/measurement.md)
    assert report["config"]["max_per_collection"] == 7
    assert len(report["collections"]) == len(counts) == 5
    for c in report["collections"]:
        assert c["source_count"] == counts[c["entity_type"]], c
        assert c["expected_count"] == c["copied"] == c["target_count"] == 7, c
    assert report["copied"] == report["expected"] == 5 * 7


@pytest.mark.parametrize("keep", [True, False])
def test_keep_target_keeps_the_partial_catalog_of_a_stopped_run(tiny, tmp_path, keep):
    def stop(_):
        raise RuntimeError("stop at the first progress call")

    with pytest.raises(RuntimeError, match="stop at the first progress call"):
        warmup.run(tiny, target="embedded", work_dir=tmp_path / "work", target_catalog="partial",
                   keep_target=keep, progress=stop)
    # A stopped run drops its partial catalog unless asked to keep it (docs/measurement.md, --keep-target).
    engine = warmup.Engine(str(tmp_path / "work"))
    if keep:
        assert engine.catalog_names() == ["partial"]
        catalog = engine.catalog("partial")
        assert catalog.state == "WARMING_UP"  # it never went live
        assert 0 < sum(catalog.count(t) for t in catalog.entity_types) < 300
    else:
        assert engine.catalog_names() == []
    engine.close()


def test_catalog_chooses_among_snapshots_and_target_catalog_names_the_copy(tmp_path):
    pristine = tmp_path / "pristine"
    warmup.generate("tiny", 1.0, pristine, seed=3, catalog="alpha")
    beta = warmup.generate("tiny", 1.0, pristine, seed=4, catalog="beta")
    with pytest.raises(warmup.InvalidArgumentError) as raised:
        warmup.run(pristine)  # two snapshots and no catalog: both are named
    assert "alpha" in str(raised.value) and "beta" in str(raised.value)
    # The error names the value by this function's argument, not by a command-line flag.
    assert "source: " in str(raised.value) and "--pristine-dir" not in str(raised.value)
    assert "choose one with catalog" in str(raised.value) and "--catalog" not in str(raised.value)
    report = warmup.run(pristine, catalog="beta", target="embedded", work_dir=tmp_path / "work",
                        target_catalog="published")
    assert report["exit_code"] == 0
    assert report["source_catalog"] == "beta"
    assert report["config"]["dataset_provenance"]["generator.seed"] == "4"  # beta's, not alpha's 3
    assert report["target_catalog"] == "published"
    engine = warmup.Engine(str(tmp_path / "work"))
    assert engine.catalog_names() == ["published"]
    catalog = engine.catalog("published")
    assert catalog.state == "ALIVE"
    assert {t: catalog.count(t) for t in catalog.entity_types} == source_counts(beta)
    engine.close()


def _crc32c_table():
    table = []
    for n in range(256):
        for _ in range(8):
            n = (n >> 1) ^ (0x82F63B78 if n & 1 else 0)
        table.append(n)
    return table


CRC32C_TABLE = _crc32c_table()


def crc32c(data):
    """CRC-32C (Castagnoli, reflected, polynomial 0x82F63B78)."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = CRC32C_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def record_flags(catalog_dir):
    """(flags, payload) of every record in a catalog's collections/NNN.records. docs/engine.md: records are
    [u32 length][u32 CRC-32C of flags+payload][u8 flags][payload], little-endian; flags 0 stored, 1 zstd,
    2 raw deflate. Each record's checksum is checked, so the walk cannot drift."""
    records = []
    files = sorted((Path(catalog_dir) / "collections").glob("*.records"))
    assert len(files) == 5, files
    for path in files:
        data = path.read_bytes()
        at = 0
        while at < len(data):
            length, crc = struct.unpack_from("<II", data, at)
            body = data[at + 8:at + 9 + length]
            assert len(body) == length + 1, f"{path}: a torn record at {at}"
            assert crc32c(body) == crc, f"{path}: the record at {at} fails its CRC-32C"
            records.append((body[0], body[1:]))
            at += 9 + length
    assert len(records) >= 300, len(records)  # every entity has at least its body
    return records


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"  # a zstd frame's first bytes (RFC 8878)


def check_compression(records, compress):
    flags = {f for f, _ in records}
    if compress == "none":
        assert flags == {0}, flags
    elif compress == "zstd":
        # compressed when that is smaller, so some records are and none is deflated
        assert 1 in flags and 2 not in flags, flags
        assert all(payload.startswith(ZSTD_MAGIC) for f, payload in records if f == 1)
    else:
        assert 2 in flags and 1 not in flags, flags


@pytest.mark.parametrize("compress", ["none", "zstd", "deflate"])
def test_run_compress_is_how_the_embedded_engine_stores_records_and_is_recorded(tiny, tmp_path, compress):
    report = warmup.run(tiny, target="embedded", work_dir=tmp_path / "work", compress=compress)
    assert report["exit_code"] == 0
    assert report["config"]["compression"] == compress
    check_compression(record_flags(tmp_path / "work" / report["target_catalog"]), compress)


def test_run_refuses_an_unknown_compression(tiny, tmp_path):
    with pytest.raises(warmup.InvalidArgumentError, match='"none", "zstd" or "deflate"'):
        warmup.run(tiny, target="embedded", work_dir=tmp_path / "work", compress="lz4")
    with pytest.raises(warmup.InvalidArgumentError, match='"none", "zstd" or "deflate"'):
        warmup.run(tiny, target="null", compress="lz4")  # refused for a target that stores nothing too
    with pytest.raises(warmup.InvalidArgumentError, match='"none", "zstd" or "deflate"'):
        warmup.Server(tmp_path / "server", compress="lz4")


@pytest.mark.parametrize("compress", ["none", "zstd"])
def test_server_compress_is_how_the_server_stores_records(tiny, tmp_path, compress):
    with warmup.Server(tmp_path / "server", compress=compress) as server:
        report = warmup.run(tiny, target="remote", address=server.address, target_catalog="served")
    assert report["exit_code"] == 0
    # A server this run did not start: its settings are not the run's to know (docs/measurement.md).
    assert report["config"]["compression"] is None
    check_compression(record_flags(tmp_path / "server" / "served"), compress)


def product(pk, **attributes):
    return {"type": "Product", "primary_key": pk, "attributes": {"code": f"P{pk}", **attributes},
            "localized_attributes": {"cs": {"url": f"/cs/p/{pk}"}},
            "references": [{"name": "categories", "pk": 1, "attributes": {"order": 1}}],
            "prices": [{"price_id": 1, "price_list": "basic", "currency": "CZK",
                        "price_without_tax": "100", "tax_rate": "21", "price_with_tax": decimal.Decimal("121.00"),
                        "validity": (datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc), None)}]}


def test_engine_upserts_dicts_and_its_reads_prove_the_indexes(tmp_path):
    engine = warmup.Engine(str(tmp_path / "data"))
    catalog = engine.create_catalog("shop", schema_from={"profile": "senesi", "scale": 0.001})
    assert catalog.state == "WARMING_UP"
    assert "Product" in catalog.entity_types
    for pk, ean in [(1, "859001"), (2, "859002"), (3, "859003")]:
        catalog.upsert(product(pk, ean=ean, stockQuantity=pk * 10))
    catalog.go_live()
    assert catalog.state == "ALIVE"
    assert catalog.count("Product") == 3
    assert catalog.primary_keys("Product") == [1, 2, 3]
    assert catalog.filter_equals("Product", "ean", "859002") == [2]
    assert catalog.sort_by("Product", "code", descending=True) == [3, 2, 1]
    assert catalog.filter_range("Product", "stockQuantity", low=15) == [2, 3]
    assert catalog.members("Product", index={"reference": "categories", "pk": 1}) == [1, 2, 3]
    assert catalog.facet_members("Product", "categories", 1) == [1, 2, 3]
    at_121 = catalog.prices_for_sale("Product", ["basic"], "CZK", low="100", high="200")
    assert [pk for pk, _ in at_121] == [1, 2, 3]
    stored = catalog.get("Product", 2)
    assert stored["attributes"]["ean"] == "859002"
    assert stored["prices"][0]["price_with_tax"] == decimal.Decimal("121.00")
    assert stored["prices"][0]["validity"][0] == datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    assert catalog.get("Product", 99) is None
    stats = {s["entity_type"]: s["kinds"] for s in catalog.index_statistics()}
    assert stats["Product"]["REFERENCED_ENTITY"]["indexes"] >= 1


def test_engine_rejects_bad_entities_naming_what_is_wrong(tmp_path):
    engine = warmup.Engine(str(tmp_path / "data"))
    catalog = engine.create_catalog("shop", schema_from={"profile": "senesi", "scale": 0.001})
    with pytest.raises(warmup.InvalidArgumentError, match="attribute .stockQuantity.*INTEGER wants an int"):
        catalog.upsert(product(1, ean="1", stockQuantity="ten"))
    with pytest.raises(warmup.InvalidArgumentError, match="attribute 'colour'.*not in the schema"):
        catalog.upsert(product(1, ean="1", colour="red"))
    with pytest.raises(warmup.InvalidArgumentError, match="unknown key 'colour'"):
        catalog.upsert({"type": "Product", "primary_key": 1, "colour": "red"})
    with pytest.raises(warmup.InvalidArgumentError, match="has no entity type Planet"):
        catalog.upsert({"type": "Planet", "primary_key": 1})
    with pytest.raises(warmup.InvalidArgumentError, match="reference 'categories' is ONE_OR_MORE"):
        catalog.upsert({"type": "Product", "primary_key": 1, "attributes": {"code": "P1", "ean": "1"},
                        "localized_attributes": {"cs": {"url": "/cs/p/1"}}})
    with pytest.raises(warmup.InvalidArgumentError, match="has no locale, but its localized attribute 'url'"):
        catalog.upsert({"type": "Product", "primary_key": 1, "attributes": {"code": "P1", "ean": "1"}})
    assert catalog.count("Product") == 0
    with pytest.raises(warmup.FailedPreconditionError, match="in use"):
        warmup.Engine(str(tmp_path / "data"))
    engine.close()
    with pytest.raises(warmup.FailedPreconditionError, match="closed"):
        engine.catalog_names()


ROOT = Path(__file__).resolve().parents[3]


def readme_snippet(name):
    """The fenced block after "<!-- snippet: NAME -->" in README.md."""
    lines = (ROOT / "README.md").read_text().splitlines()
    start = lines.index(f"<!-- snippet: {name} -->") + 2  # the marker, then the opening fence
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    return "\n".join(lines[start:end])


def test_the_readme_python_snippet_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(readme_snippet("python/publish.py"), "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "exit 0 total" in out
    assert "remote exit 0" in out
    assert "Product" in out


def test_the_matplotlib_example_plots_two_runs(tmp_path):
    chart = tmp_path / "medians.png"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples/python/compare_medians.py"), "--scale", "0.002", "--out", str(chart)],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Product" in done.stdout
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_defaults_to_the_embedded_target_as_the_command_line_does(tiny, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = warmup.run(tiny + "/")
    assert report["config"]["target_kind"] == "embedded"
    assert report["exit_code"] == 0
    assert (tmp_path / "warmup-work" / ".warmup-workdir").is_file()  # the CLI's default --work-dir
    assert report["source_cache"] is not None, "a snapshot directory's page cache is measured, as on the CLI"


def test_generate_takes_compress_as_a_name_like_every_other_call(tmp_path):
    packed = warmup.generate("tiny", 1.0, tmp_path / "zstd", seed=3, compress="zstd")
    plain = warmup.generate("tiny", 1.0, tmp_path / "none", seed=3, compress="none")
    assert warmup.inspect(packed)["total_count"] == warmup.inspect(plain)["total_count"] == 300
    size = lambda d: sum(f.stat().st_size for f in Path(d).rglob("*") if f.is_file())  # noqa: E731
    assert size(packed) < size(plain), "zstd frames are smaller than the same records plain"
    with pytest.raises(warmup.InvalidArgumentError, match="compress"):
        warmup.generate("tiny", 1.0, tmp_path / "bad", compress="lz4")


def test_regression_engine_close_left_catalogs_writable_and_the_lock_held(tmp_path):
    engine = warmup.Engine(str(tmp_path / "data"))
    catalog = engine.create_catalog("shop", schema_from={"profile": "senesi", "scale": 0.001})
    catalog.upsert(product(1, ean="859001", stockQuantity=1))
    engine.close()
    with pytest.raises(warmup.FailedPreconditionError, match="engine is closed"):
        catalog.upsert(product(2, ean="859002", stockQuantity=2))
    with pytest.raises(warmup.FailedPreconditionError, match="engine is closed"):
        catalog.count("Product")
    with pytest.raises(warmup.FailedPreconditionError, match="engine is closed"):
        catalog.go_live()  # a call that runs without the GIL raises under it
    assert catalog.name == "shop"
    # The data directory's lock went with the engine: another may open it.
    again = warmup.Engine(str(tmp_path / "data"))
    assert again.catalog_names() == ["shop"]
    again.close()


@pytest.mark.parametrize("key", [2**70, 2**32 + 5, -(2**31) - 1])
def test_regression_a_key_beyond_32_bits_raised_a_bare_pybind_error_or_was_cut_to_32_bits(tmp_path, key):
    engine = warmup.Engine(str(tmp_path / "data"))
    catalog = engine.create_catalog("shop", schema_from={"profile": "senesi", "scale": 0.001})
    with pytest.raises(warmup.InvalidArgumentError, match="32-bit int"):
        catalog.upsert(product(key, ean="859001", stockQuantity=1))
    with pytest.raises(warmup.InvalidArgumentError, match="32-bit int"):
        catalog.get("Product", key)
    with pytest.raises(warmup.InvalidArgumentError, match="32-bit int"):
        catalog.remove("Product", key)
    with pytest.raises(warmup.InvalidArgumentError, match="32-bit int"):
        catalog.members("Product", index={"reference": "categories", "pk": key})
    assert catalog.count("Product") == 0  # 2**32 + 5 did not land as key 5
    engine.close()


def test_a_deleted_catalog_refuses_calls_instead_of_reading_freed_memory(tmp_path):
    engine = warmup.Engine(str(tmp_path / "data"))
    catalog = engine.create_catalog("shop", schema_from={"profile": "senesi", "scale": 0.001})
    engine.delete_catalog("shop")
    with pytest.raises(warmup.NotFoundError, match="shop"):
        catalog.count("Product")
    engine.close()


def test_keys_take_any_int_like_value_but_a_bool(tmp_path):
    class Key:
        def __index__(self):
            return 1
    engine = warmup.Engine(str(tmp_path / "data"))
    catalog = engine.create_catalog("shop", schema_from={"profile": "senesi", "scale": 0.001})
    catalog.upsert(product(1, ean="859001", stockQuantity=1))
    assert catalog.get("Product", Key())["primary_key"] == 1
    with pytest.raises(warmup.InvalidArgumentError, match="wants an int"):
        catalog.get("Product", True)
    with pytest.raises(warmup.InvalidArgumentError, match="wants an int"):
        catalog.get("Product", 1.0)
    engine.close()


def test_regression_run_of_a_snapshot_named_by_a_relative_one_part_path_found_no_directory(tiny, monkeypatch):
    monkeypatch.chdir(Path(tiny).parent)
    report = warmup.run(Path(tiny).name, target="null")
    assert report["exit_code"] == 0 and report["copied"] == 300
    monkeypatch.chdir(tiny)
    assert warmup.run(".", target="null")["copied"] == 300


def test_regression_the_in_process_server_printed_to_the_host_programs_stderr(tiny, tmp_path):
    script = (
        "import warmup, sys\n"
        f"with warmup.Server({str(tmp_path / 'server')!r}) as server:\n"
        f"    report = warmup.run({str(tiny)!r}, target='remote', address=server.address)\n"
        "sys.exit(report['exit_code'])\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", "a library prints nothing of its own: " + done.stderr


def test_run_reads_ahead_by_default_and_inline_when_asked(tiny):
    ahead = warmup.run(tiny, target="null")
    inline = warmup.run(tiny, target="null", read_ahead=False)
    assert ahead["config"]["source_read_ahead"] is True
    assert inline["config"]["source_read_ahead"] is False
    assert ahead["exit_code"] == inline["exit_code"] == 0
    assert [c["copied"] for c in ahead["collections"]] == [c["copied"] for c in inline["collections"]]
