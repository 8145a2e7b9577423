interface Memory_AddObservationsInput {
  observations: {
    /** The name of the entity to add the observations to */
    entityName: string;
    /** An array of observation contents to add */
    contents: string[];
  }[];
}

interface Memory_AddObservationsOutput {
  results: { entityName: string; addedObservations: string[] }[];
}

interface Memory_CreateEntitiesInput {
  entities: {
    /** The name of the entity */
    name: string;
    /** The type of the entity */
    entityType: string;
    /** An array of observation contents associated with the entity */
    observations: string[];
  }[];
}

interface Memory_CreateEntitiesOutput {
  entities: {
    /** The name of the entity */
    name: string;
    /** The type of the entity */
    entityType: string;
    /** An array of observation contents associated with the entity */
    observations: string[];
  }[];
}

interface Memory_CreateRelationsInput {
  relations: {
    /** The name of the entity where the relation starts */
    from: string;
    /** The name of the entity where the relation ends */
    to: string;
    /** The type of the relation */
    relationType: string;
  }[];
}

interface Memory_CreateRelationsOutput {
  relations: {
    /** The name of the entity where the relation starts */
    from: string;
    /** The name of the entity where the relation ends */
    to: string;
    /** The type of the relation */
    relationType: string;
  }[];
}

interface Memory_DeleteEntitiesInput {
  /** An array of entity names to delete */
  entityNames: string[];
}

interface Memory_DeleteEntitiesOutput {
  success: boolean;
  message: string;
}

interface Memory_DeleteObservationsInput {
  deletions: {
    /** The name of the entity containing the observations */
    entityName: string;
    /** An array of observations to delete */
    observations: string[];
  }[];
}

interface Memory_DeleteObservationsOutput {
  success: boolean;
  message: string;
}

interface Memory_DeleteRelationsInput {
  /** An array of relations to delete */
  relations: {
    /** The name of the entity where the relation starts */
    from: string;
    /** The name of the entity where the relation ends */
    to: string;
    /** The type of the relation */
    relationType: string;
  }[];
}

interface Memory_DeleteRelationsOutput {
  success: boolean;
  message: string;
}

interface Memory_OpenNodesInput {
  /** An array of entity names to retrieve */
  names: string[];
}

interface Memory_OpenNodesOutput {
  entities: {
    /** The name of the entity */
    name: string;
    /** The type of the entity */
    entityType: string;
    /** An array of observation contents associated with the entity */
    observations: string[];
  }[];
  relations: {
    /** The name of the entity where the relation starts */
    from: string;
    /** The name of the entity where the relation ends */
    to: string;
    /** The type of the relation */
    relationType: string;
  }[];
}

interface Memory_ReadGraphOutput {
  entities: {
    /** The name of the entity */
    name: string;
    /** The type of the entity */
    entityType: string;
    /** An array of observation contents associated with the entity */
    observations: string[];
  }[];
  relations: {
    /** The name of the entity where the relation starts */
    from: string;
    /** The name of the entity where the relation ends */
    to: string;
    /** The type of the relation */
    relationType: string;
  }[];
}

interface Memory_SearchNodesInput {
  /** The search query to match against entity names, types, and observation content */
  query: string;
}

interface Memory_SearchNodesOutput {
  entities: {
    /** The name of the entity */
    name: string;
    /** The type of the entity */
    entityType: string;
    /** An array of observation contents associated with the entity */
    observations: string[];
  }[];
  relations: {
    /** The name of the entity where the relation starts */
    from: string;
    /** The name of the entity where the relation ends */
    to: string;
    /** The type of the relation */
    relationType: string;
  }[];
}

declare const tools: {
  memory: {
    /** Add new observations to existing entities in the knowledge graph */
    add_observations(args: Memory_AddObservationsInput): Promise<Memory_AddObservationsOutput>;
    /** Create multiple new entities in the knowledge graph */
    create_entities(args: Memory_CreateEntitiesInput): Promise<Memory_CreateEntitiesOutput>;
    /** Create multiple new relations between entities in the knowledge graph. Relations should be in active voice */
    create_relations(args: Memory_CreateRelationsInput): Promise<Memory_CreateRelationsOutput>;
    /** Delete multiple entities and their associated relations from the knowledge graph */
    delete_entities(args: Memory_DeleteEntitiesInput): Promise<Memory_DeleteEntitiesOutput>;
    /** Delete specific observations from entities in the knowledge graph */
    delete_observations(args: Memory_DeleteObservationsInput): Promise<Memory_DeleteObservationsOutput>;
    /** Delete multiple relations from the knowledge graph */
    delete_relations(args: Memory_DeleteRelationsInput): Promise<Memory_DeleteRelationsOutput>;
    /** Open specific nodes in the knowledge graph by their names */
    open_nodes(args: Memory_OpenNodesInput): Promise<Memory_OpenNodesOutput>;
    /** Read the entire knowledge graph */
    read_graph(): Promise<Memory_ReadGraphOutput>;
    /** Search for nodes in the knowledge graph based on a query */
    search_nodes(args: Memory_SearchNodesInput): Promise<Memory_SearchNodesOutput>;
  };
};
declare const memory: typeof tools.memory;

// Signatures:
// tools.memory.create_entities({entities: {…}[]}): Promise<{entities: {…}[]}>
// tools.memory.create_relations({relations: {…}[]}): Promise<{relations: {…}[]}>
// tools.memory.add_observations({observations: {…}[]}): Promise<{results: {…}[]}>
// tools.memory.delete_entities({entityNames: string[]}): Promise<{success: boolean, message: string}>
// tools.memory.delete_observations({deletions: {…}[]}): Promise<{success: boolean, message: string}>
// tools.memory.delete_relations({relations: {…}[]}): Promise<{success: boolean, message: string}>
// tools.memory.read_graph(): Promise<{entities: {…}[], relations: {…}[]}>
// tools.memory.search_nodes({query: string}): Promise<{entities: {…}[], relations: {…}[]}>
// tools.memory.open_nodes({names: string[]}): Promise<{entities: {…}[], relations: {…}[]}>
