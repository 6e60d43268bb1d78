"""Keep London Moving faces (:mod:`.faces`): Station and Fortune Cards, backs, reference cards, Play Field."""
