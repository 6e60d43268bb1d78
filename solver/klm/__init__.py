"""Keep London Moving: the deal model (:mod:`.model`), the many-deal check (:mod:`.check`) and the all-deals adversary (:mod:`.bound`)."""
