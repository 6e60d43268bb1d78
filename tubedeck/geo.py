"""Distances on the Earth, for datasets in WGS84 degrees: one formula for every part that measures
(the GTFS importer's zone rings, Tube Dice's scope radius and section lengths, the diagram's
projection)."""

from __future__ import annotations

import math

EARTH_KM = 6371.0  # mean Earth radius


def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """The great-circle distance between two points, km (haversine)."""
    la1, la2 = math.radians(lat1), math.radians(lat2)
    dla, dlo = la2 - la1, math.radians(lon2 - lon1)
    h = math.sin(dla / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(dlo / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


__all__ = ["EARTH_KM", "great_circle_km"]
