"""One Day in London faces (:mod:`.faces`) and the map sheet (:mod:`.map`)."""
