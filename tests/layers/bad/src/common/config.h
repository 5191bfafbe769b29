/* fixture: a common/ header */
