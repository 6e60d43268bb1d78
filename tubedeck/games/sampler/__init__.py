"""The sampler: the print engine's proof sheet on real data (a station-name card per station and
a lines sheet). Not a game one plays; registered so ``build all`` and ``tubedeck games`` see it
like every other. Its edition is the network itself; faces: ``generator/sampler/``."""

from tubedeck.game import Game

GAME = Game(
    id="sampler",
    title="tubedeck sampler",
    rules="none: the print engine's proof sheet",
    summary="A station-name card per station and a lines sheet, proving the print engine on the dataset.",
    edition="tubedeck.games.sampler.edition:load",
    faces="tubedeck.generator.sampler.faces:documents",
    documents=("stations", "lines"),
)
