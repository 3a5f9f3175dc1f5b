"""Game records: one documented JSON Lines family for both games (see ``docs/records.md``)."""

from .jsonl import FORMAT, VERSION, RecordError, dump_record, load_record, parse_record

__all__ = ["FORMAT", "VERSION", "RecordError", "dump_record", "load_record", "parse_record"]
