"""Privacy verbs: ``new-encryption-key`` and ``reencrypt`` (key rotation, docs/privacy.md)."""

from __future__ import annotations

import click

from jiyi.cli.common import CliError, emit_json, json_option


def register(cli: click.Group) -> None:
    for cmd in (new_encryption_key, reencrypt):
        cli.add_command(cmd)


@click.command(name="new-encryption-key")
def new_encryption_key() -> None:
    """Print a new random encryption key (base64, 32 bytes) for JIYI_ENCRYPTION_KEY or a key file."""
    from jiyi.privacy.seal import generate_key

    click.echo(generate_key())


@click.command()
@json_option
def reencrypt(as_json: bool) -> None:
    """Seal every stored value again with the first configured key (after adding a new key first).

    Values stored in clear before a key was set are masked and sealed too. Memories
    sealed with a key that is not configured are left as they are.
    """
    from jiyi import registry
    from jiyi.clock import SystemClock
    from jiyi.config import load_settings
    from jiyi.errors import ConfigError, JiyiError
    from jiyi.maintain.reseal import reseal
    from jiyi.privacy.seal import keyring_from
    from jiyi.write.embed import CachedEmbedder

    settings = load_settings(**dict(click.get_current_context().find_root().obj or {}))
    store = None
    try:
        key = settings.encryption_key
        keyring = keyring_from(key.get_secret_value() if key else None, settings.encryption_key_file)
        if keyring is None:
            raise ConfigError("no encryption key: set JIYI_ENCRYPTION_KEY or encryption_key_file "
                              "(make one with `jiyi new-encryption-key`)")
        store = registry.create("store", settings.store_backend(), settings)
        embedder = registry.create("embedder", settings.embedder, settings)
        store.check_embedding(embedder.model, embedder.dim)
        report = reseal(store, CachedEmbedder(embedder, store), keyring, SystemClock().now(),
                        context_mode=settings.episode_context)
    except JiyiError as exc:
        raise CliError(str(exc)) from None
    finally:
        if store is not None:
            store.close()
    if as_json:
        emit_json(report.to_dict())
        return
    click.echo(f"key {report.key_id}: {report.resealed} re-sealed, {report.masked} masked and sealed "
               f"({report.users} users)")
