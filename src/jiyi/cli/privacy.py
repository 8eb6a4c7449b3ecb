"""Privacy verbs: ``new-encryption-key`` and ``reencrypt`` (key rotation, docs/privacy.md)."""

from __future__ import annotations

import click

from jiyi.cli.common import CliError, cli_settings, emit_json, json_option, open_backends


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
    from jiyi.clock import SystemClock
    from jiyi.maintain.reseal import reseal
    from jiyi.privacy.seal import keyring_from
    from jiyi.write.embed import CachedEmbedder

    settings = cli_settings()
    key = settings.encryption_key
    keyring = keyring_from(key.get_secret_value() if key else None, settings.encryption_key_file)
    if keyring is None:
        raise CliError("no encryption key: set JIYI_ENCRYPTION_KEY or encryption_key_file "
                       "(make one with `jiyi new-encryption-key`)")
    with open_backends(settings) as (store, embedder):
        store.check_embedding(embedder.model, embedder.dim)
        report = reseal(store, CachedEmbedder(embedder, store), keyring, SystemClock().now(),
                        context_mode=settings.episode_context)
    if as_json:
        emit_json(report.to_dict())
        return
    click.echo(f"key {report.key_id}: {report.resealed} re-sealed, {report.masked} masked and sealed "
               f"({report.users} users)")
