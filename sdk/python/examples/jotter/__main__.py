import intentd

from . import Jotter

intentd.run(Jotter)
