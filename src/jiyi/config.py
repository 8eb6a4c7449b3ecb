"""Settings: one pydantic-settings model, ``JIYI_`` environment prefix, optional TOML file.

``Memory(**config)`` builds ``Settings(**config)``: explicit arguments win over the
environment, which wins over ``$JIYI_HOME/config.toml``, which wins over defaults.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

DEFAULT_HALF_LIVES: dict[str, float] = {
    "event": 14.0,
    "episode": 30.0,
    "fact": 365.0,
    "preference": 180.0,
    "relation": 365.0,
    "summary": 60.0,
    "behavior": 180.0,
}


def default_home() -> Path:
    """``$JIYI_HOME`` or the platform's user data dir."""
    env = os.environ.get("JIYI_HOME")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "jiyi"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "jiyi"
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "jiyi"


class Settings(BaseSettings):
    """Every knob of jiyi. Names map to env vars: ``store`` ↔ ``JIYI_STORE``."""

    model_config = SettingsConfigDict(env_prefix="JIYI_", extra="forbid", validate_default=True)

    home: Path = Field(default_factory=default_home)
    tenant: str = "default"
    store: str = Field("sqlite", description="'sqlite', a file path, or a postgres:// URI")
    path: Path | None = Field(None, description="SQLite file; default $JIYI_HOME/jiyi.db")

    embedder: str = "e5"
    embedder_model: str | None = None
    embedder_threads: int = 1
    embedder_base_url: str | None = None
    embedder_api_key: str | None = None

    extractor: str = "rules"
    reranker: str | None = Field(
        None, description="second-stage scoring of the fused candidates: 'api', 'sentence-transformers', 'llm'")
    reranker_base_url: str | None = Field(None, description="rerank API base URL ({base_url}/rerank)")
    reranker_model: str | None = None
    reranker_api_key: str | None = None
    reranker_candidates: int = Field(
        50, ge=1, le=200, description="how many fused candidates the reranker sees (docs/retrieval.md: 30 loses recall)")
    reranker_timeout: float = Field(
        2.0, gt=0, description="seconds a search waits for the reranker before keeping the fused order")
    gc_interval_hours: float = Field(
        6.0, ge=0, description="jiyi serve / jiyi worker run gc (expiry, erasure after the restore window, "
                               "archiving) this often; 0: off (run `jiyi gc --apply` yourself)")
    reranker_breaker_failures: int = Field(
        3, ge=0, description="failures or timeouts in a row after which searches skip the reranker (0: never)")
    reranker_breaker_cooldown: float = Field(
        30.0, gt=0, description="seconds the reranker is skipped after that, before one search probes it")

    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str | None = None
    llm_timeout: float = 30.0
    llm_max_retries: int = 3
    llm_concurrency: int = 4
    llm_resolve: bool = Field(
        True, description="with an LLM configured, ask it to judge close calls (ADD/UPDATE/MERGE/SUPERSEDE/NONE)")
    llm_resolve_min_cosine: float | None = Field(
        None, description="cosine where close calls begin; default: the embedder's related_threshold, else 0.80")
    summary_every_rounds: int = Field(
        20, description="write a session summary every N user rounds (0: only at end_session)")
    context_compress: bool = Field(
        False, description="build_context asks the LLM to compress memories that exceed the budget")
    group_context: bool = Field(
        True, description="build_context shows other members' standing facts from group sessions the user shared")
    secret_context: bool = Field(
        True, description="build_context may show a line that holds a secret with its value hidden (what it is for)")

    episode_context: Literal["joint", "mean", "off"] = Field(
        "joint", description="episode context vectors: embed prev+turn (joint), average the two (mean), or none")
    buffer_rounds: int = 12
    extract_every_rounds: int = 4
    long_message_chars: int = 120
    merge_threshold: float | None = Field(
        None, description="cosine for near-duplicates; default: the embedder's own (e5: 0.98), else 0.95")
    max_message_chars: int = 20_000
    max_messages_per_add: int = 1_000

    timezone: str = Field(
        "Asia/Shanghai", description="IANA zone of the users' local day: 明天 / 下周三 / 今天中午 resolve in it")

    encryption_key: SecretStr | None = Field(
        None, description="base64 32-byte key(s), comma-separated, the first seals: sensitive and secret values "
                          "are kept encrypted (AES-GCM); unset: secret values are not kept at all (docs/privacy.md)")
    encryption_key_file: Path | None = Field(
        None, description="file with one base64 key a line (first seals, all open); read with encryption_key")

    half_lives: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_HALF_LIVES))
    weights: dict[str, float] = Field(default_factory=dict)
    background_worker: bool = True
    debug: bool = False

    @field_validator("tenant")
    @classmethod
    def _tenant_ok(cls, v: str) -> str:
        if not v or len(v) > 128:
            raise ValueError("tenant must be 1-128 characters")
        return v

    @field_validator("timezone")
    @classmethod
    def _timezone_ok(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise ValueError(
                f"unknown time zone {v!r}: use an IANA name such as 'Asia/Shanghai', 'Europe/Berlin' or 'UTC' "
                "(on Windows, pip install tzdata)") from None
        return v

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, _TomlSource(settings_cls))

    def sqlite_path(self) -> Path:
        """Where the SQLite file lives for this configuration."""
        if self.path is not None:
            return Path(self.path).expanduser()
        if self.store not in ("sqlite", "") and "://" not in self.store:
            return Path(self.store).expanduser()
        return self.home / "jiyi.db"

    def store_backend(self) -> str:
        """Registry name of the store this configuration asks for."""
        if self.store.startswith(("postgres://", "postgresql://")):
            return "postgres"
        if self.store.startswith("sqlite://"):
            return "sqlite"
        if "://" not in self.store and (self.store.endswith(".db") or "/" in self.store):
            return "sqlite"
        return self.store


class _TomlSource(PydanticBaseSettingsSource):
    """Reads ``$JIYI_CONFIG`` or ``$JIYI_HOME/config.toml`` (top-level keys = field names)."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        path = os.environ.get("JIYI_CONFIG")
        candidate = Path(path) if path else default_home() / "config.toml"
        if not candidate.is_file():
            return {}
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef,import-not-found,unused-ignore]
        with candidate.open("rb") as fh:
            data = tomllib.load(fh)
        return dict(data.get("jiyi", data))


def load_settings(**overrides: Any) -> Settings:
    """``Settings(**overrides)``, with validation errors turned into one actionable ConfigError."""
    from pydantic import ValidationError

    from jiyi.errors import ConfigError

    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"invalid jiyi settings ({problems}); see README 'Configuration'") from None
    except ValueError as exc:  # a broken config.toml, a JIYI_* variable that is not valid JSON
        raise ConfigError(f"invalid jiyi settings: {type(exc).__name__}: {exc}; see README 'Configuration'") from None
