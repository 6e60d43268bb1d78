"""The sampler's edition is the dataset's network, unchanged."""

from __future__ import annotations

from tubedeck.network import Network


def load(network: Network) -> Network:
    return network
