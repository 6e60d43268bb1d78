"""The sampler faces (:mod:`.faces`): the print engine proved on the dataset."""
