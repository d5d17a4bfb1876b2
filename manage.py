#!/usr/bin/env python
from config.manage import main

if __name__ == "__main__":
    main()
