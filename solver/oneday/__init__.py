"""One Day in London: the fewest-exchanges engines (:mod:`.exchanges`), the CP-SAT model (:mod:`.model`) and the deal check (:mod:`.check`)."""
