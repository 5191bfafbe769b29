/* fixture: a gpu/ header */
